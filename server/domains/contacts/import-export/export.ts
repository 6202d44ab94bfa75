/**
 * Exporting one layer of the address book as vCard 4.0 or CSV: the shared cards (every member reads
 * them, as the list shows them), the member's own cards, or with `mailboxId` their cards for that
 * mailbox. Streamed: keyset pages of 500 cards in (kind, value) order (repo.ts), each turned into text
 * as the client reads, so no layer sits whole in memory and nothing is held between two pages (no
 * bound on the count; a card written during the export appears if its place is still ahead).
 *
 * CSV: the import's columns (`kind`, `value`, then the layer's fields), so an export imports back. To
 * protect spreadsheet users a field starting with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * prefixed with `'` (the tables' export rule, its function), unless `raw`; the import takes such a `'`
 * off again. vCard: one card per entry (vcard.ts), FN the shared display name or the value, KIND:org
 * and X-DOMAIN for a domain, our X-STATUS / X-FORMALITY / X-TONE for the fields vCard has no name for.
 */
import { stringify } from 'csv-stringify/sync';
import type { AuthenticatedActor } from '../../../core/auth/access';
import { appError } from '../../../core/errors/app-error';
import { neutraliseFormula } from '../../tables';
import { ownedMailboxOrThrow } from '../access';
import { contactKinds, type ContactKind } from '../normalise';
import { fieldsOf, type ImportLayer } from './lines';
import { exportPage, type ExportRow, type ImportTarget } from './repo';
import { writeVcard } from './vcard';

const pageSize = 500;

export interface ExportRequest {
  format: 'vcard' | 'csv';
  layer: ImportLayer;
  mailboxId?: string;
  raw: boolean;
}

/** What the download route reads: text chunks, and `return()` to stop early. */
export interface ContactsExportChunks {
  next(): Promise<IteratorResult<string>>;
  return(): Promise<unknown>;
}

function csvFieldsOf(row: ExportRow, layer: ImportLayer): (string | null)[] {
  const byName: Record<string, string | null> = {
    displayName: row.displayName,
    language: row.language,
    status: row.status,
    orgNotes: row.notes,
    personalNotes: row.notes,
    formality: row.formality,
    tone: row.tone,
  };
  return [row.kind, row.value, ...fieldsOf(layer).map((name) => byName[name] ?? null)];
}

function vcardOf(row: ExportRow): string {
  const kind = (contactKinds as readonly string[]).includes(row.kind) ? (row.kind as ContactKind) : 'contact';
  return writeVcard({ kind, value: row.value, fn: row.displayName, lang: row.language, note: row.notes, status: row.status, formality: row.formality, tone: row.tone });
}

async function* chunksOf(target: ImportTarget, request: ExportRequest): AsyncGenerator<string> {
  const cell = (text: string | null) => (text === null ? '' : request.raw ? text : neutraliseFormula(text));
  if (request.format === 'csv') yield stringify([['kind', 'value', ...fieldsOf(request.layer)]]);
  let after: { kind: ContactKind; value: string } | null = null;
  for (;;) {
    const rows = await exportPage(target, after, pageSize);
    if (rows.length === 0) break;
    yield request.format === 'csv' ? stringify(rows.map((row) => csvFieldsOf(row, request.layer).map(cell))) : rows.map(vcardOf).join('');
    if (rows.length < pageSize) break;
    const last = rows[rows.length - 1]!;
    after = { kind: last.kind as ContactKind, value: last.value };
  }
}

/**
 * Checks the request (the mailbox is the caller's, else 404) before any byte is sent, then hands the
 * chunks and the file's name to the download route.
 */
export async function openContactsExport(actor: AuthenticatedActor, request: ExportRequest) {
  const memberId = actor.member.id;
  if (request.layer === 'shared' && request.mailboxId !== undefined) {
    throw appError('request.bad_request', { message: 'The shared layer has no mailbox cards.', details: { field: 'mailboxId' } });
  }
  const mailboxId = request.mailboxId === undefined ? null : await ownedMailboxOrThrow(memberId, request.mailboxId);
  const generator = chunksOf({ layer: request.layer, memberId, mailboxId }, request);
  const chunks: ContactsExportChunks = { next: () => generator.next(), return: () => generator.return(undefined) };
  const extension = request.format === 'csv' ? 'csv' : 'vcf';
  return {
    chunks,
    fileName: `contacts-${request.layer}${mailboxId ? '-mailbox' : ''}.${extension}`,
    contentType: request.format === 'csv' ? 'text/csv; charset=utf-8' : 'text/vcard; charset=utf-8',
  };
}
