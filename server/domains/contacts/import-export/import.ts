/**
 * Importing an address book (vCard 4.0 / 3.0 or CSV) into one layer: the member's own cards (global,
 * or with `mailboxId` one of their mailboxes') or, for administrators, the shared cards.
 *
 * As the tables' CSV import: a preview says what each line becomes (`create`, `update`, `unchanged`,
 * `error` with its problems) and writes nothing; the import reads the file again and writes every line
 * or none in one transaction. With `skipInvalid` the error lines are left out and the others written;
 * without it, one error line refuses the import (422 `contacts.import_rejected`, the lines in details).
 * A line updates only the fields the file carries (lines.ts); a line whose fields already hold those
 * values is `unchanged` and not written (its `updatedAt` does not move, so the list's order does not
 * either).
 *
 * Bounds (ours): the file at most 2 MiB of UTF-8 (413 `request.payload_too_large`; the request body
 * bound, 5 MiB, is above it so the answer is ours and says the figure) and at most 5,000 entries (400
 * `request.bad_request`, `details.reason` `too_many_entries`). An import of the shared layer is
 * audited (`contacts.shared_cards_imported`, with the counts) in its transaction.
 */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { auditByOf, recordAudit } from '../../../core/audit';
import { db } from '../../../core/db';
import { appError } from '../../../core/errors/app-error';
import { ownedMailboxOrThrow, requireAdmin } from '../access';
import { fieldsOf, importLinesOf, type ImportFormat, type ImportLayer, type ImportLine, type LineProblem } from './lines';
import { cardsOfEntries, ensureEntries, findEntryIds, writeCards, type CardWrite, type EntryKey, type ImportTarget } from './repo';

export const importBounds = { maxBytes: 2 * 1024 * 1024, maxEntries: 5_000 } as const;
/** Error lines listed in a 422 (the count has them all). */
const listedRejections = 100;

export type ImportAction = 'create' | 'update' | 'unchanged' | 'error';

export interface ImportRequest {
  format: ImportFormat;
  layer: ImportLayer;
  mailboxId?: string;
  file: string;
}

export interface PlannedLine {
  line: number;
  kind: EntryKey['kind'] | null;
  value: string | null;
  action: ImportAction;
  /** The fields the line sets (as stored), absent for an error line. */
  fields: Record<string, string | null>;
  problems: LineProblem[];
}

const keyOf = (kind: string, value: string) => `${kind}\u0000${value}`;

/** Who may import where, and the file's lines; nothing read from the database but the mailbox. */
async function prepare(actor: AuthenticatedActor, request: ImportRequest): Promise<{ target: ImportTarget; lines: ImportLine[] }> {
  if (request.layer === 'shared') requireAdmin(actor);
  if (request.layer === 'shared' && request.mailboxId !== undefined) {
    throw appError('request.bad_request', { message: 'The shared layer has no mailbox cards.', details: { field: 'mailboxId' } });
  }
  const memberId = actor.member.id;
  const mailboxId = request.mailboxId === undefined ? null : await ownedMailboxOrThrow(memberId, request.mailboxId);
  const bytes = new TextEncoder().encode(request.file).length;
  if (bytes > importBounds.maxBytes) {
    throw appError('request.payload_too_large', {
      message: `The file is larger than ${importBounds.maxBytes / 1024 / 1024} MiB: split it.`,
      details: { limit: 'bytes', max: importBounds.maxBytes, value: bytes },
    });
  }
  const lines = await importLinesOf(request.format, request.file, request.layer, { maxEntries: importBounds.maxEntries });
  return { target: { layer: request.layer, memberId, mailboxId }, lines };
}

/** Each line against the card it would change: what it becomes and the card's fields after it. */
function plan(lines: ImportLine[], layer: ImportLayer, entryIds: Map<string, string>, cards: Map<string, Record<string, string | null>>) {
  const names = fieldsOf(layer);
  const planned: PlannedLine[] = [];
  const writes: CardWrite[] = [];
  for (const line of lines) {
    if (line.problems.length > 0 || line.kind === null || line.value === null) {
      planned.push({ line: line.line, kind: line.kind, value: line.value, action: 'error', fields: {}, problems: line.problems });
      continue;
    }
    const entryId = entryIds.get(keyOf(line.kind, line.value));
    const card = entryId === undefined ? undefined : cards.get(entryId);
    const after: Record<string, string | null> = {};
    for (const name of names) after[name] = name in line.fields ? (line.fields[name] ?? null) : (card?.[name] ?? null);
    const action: ImportAction = card === undefined ? 'create' : names.every((name) => after[name] === (card[name] ?? null)) ? 'unchanged' : 'update';
    planned.push({ line: line.line, kind: line.kind, value: line.value, action, fields: line.fields, problems: [] });
    if (action !== 'unchanged' && entryId !== undefined) writes.push({ entryId, fields: after });
  }
  return { planned, writes };
}

function countsOf(planned: PlannedLine[]) {
  const counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const line of planned) counts[line.action] += 1;
  return counts;
}

const validKeys = (lines: ImportLine[]): EntryKey[] =>
  lines.filter((line) => line.problems.length === 0 && line.kind !== null && line.value !== null).map((line) => ({ kind: line.kind!, value: line.value! }));

/** What each line would become; writes nothing. */
export async function previewContactsImport(actor: AuthenticatedActor, request: ImportRequest) {
  const { target, lines } = await prepare(actor, request);
  const entryIds = await findEntryIds(validKeys(lines));
  const cards = await cardsOfEntries(target, [...entryIds.values()]);
  const { planned } = plan(lines, request.layer, entryIds, cards);
  return { format: request.format, layer: request.layer, mailboxId: target.mailboxId, counts: countsOf(planned), lines: planned };
}

/** Writes every line, or none (422 with the error lines), in one transaction; `skipInvalid` leaves the error lines out. */
export async function importContacts(actor: AuthenticatedActor, request: ImportRequest & { skipInvalid: boolean }, ip: string | null) {
  const { target, lines } = await prepare(actor, request);
  const errors = lines.filter((line) => line.problems.length > 0 || line.value === null);
  const rejected = errors.slice(0, listedRejections).map((line) => ({ line: line.line, problems: line.problems }));
  if (errors.length > 0 && !request.skipInvalid) {
    throw appError('contacts.import_rejected', { details: { count: errors.length, rejected } });
  }
  const keys = validKeys(lines).sort((a, b) => (a.kind === b.kind ? (a.value < b.value ? -1 : a.value > b.value ? 1 : 0) : a.kind < b.kind ? -1 : 1));
  return db().$transaction(
    async (tx) => {
      // Entries first (created and locked in one order), then the cards as they are now, under that lock.
      const entryIds = await ensureEntries(tx, keys);
      const cards = await cardsOfEntries(target, [...entryIds.values()], tx);
      const { planned, writes } = plan(lines, request.layer, entryIds, cards);
      await writeCards(tx, target, writes);
      const counts = countsOf(planned);
      if (request.layer === 'shared') {
        await recordAudit(
          auditByOf(actor),
          { action: 'contacts.shared_cards_imported', targetKind: 'contact_shared_card', targetId: null, details: { format: request.format, ...counts }, ip },
          tx,
        );
      }
      return { created: counts.create, updated: counts.update, unchanged: counts.unchanged, rejectedCount: errors.length, rejected };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
