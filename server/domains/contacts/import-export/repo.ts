/**
 * The import's and the export's queries on entries and cards. Writes are one statement per step
 * whatever the number of lines (rows passed as one JSON parameter, read back by `jsonb_to_recordset`):
 * an import of 5,000 lines is three statements, not 10,000 round trips.
 */
import { db, type Tx } from '../../../core/db';
import type { ContactKind } from '../normalise';

type Db = Tx | ReturnType<typeof db>;

export interface EntryKey {
  kind: ContactKind;
  value: string;
}

/**
 * The entries' ids, created when missing. Keys are taken in (kind, value) order, so two imports that
 * share entries lock them in the same order and never deadlock; the rows stay locked until the
 * transaction ends (a concurrent PUT of one of them waits).
 */
export async function ensureEntries(tx: Tx, keys: EntryKey[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ id: string; kind: string; value: string }[]>`
    INSERT INTO contact_entries (id, kind, value)
    SELECT gen_random_uuid(), k.kind, k.value
    FROM jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) AS k(kind text, value text)
    ORDER BY k.kind, k.value
    ON CONFLICT (kind, value) DO UPDATE SET kind = EXCLUDED.kind
    RETURNING id, kind, value`;
  return new Map(rows.map((row) => [`${row.kind}\u0000${row.value}`, row.id]));
}

/** Existing entries of these keys (the preview creates none). */
export async function findEntryIds(keys: EntryKey[], client: Db = db()): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await client.$queryRaw<{ id: string; kind: string; value: string }[]>`
    SELECT e.id, e.kind, e.value
    FROM contact_entries e
    JOIN jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) AS k(kind text, value text) ON e.kind = k.kind AND e.value = k.value`;
  return new Map(rows.map((row) => [`${row.kind}\u0000${row.value}`, row.id]));
}

export interface ImportTarget {
  layer: 'shared' | 'member';
  memberId: string;
  /** The member's mailbox (member layer only), or null for the member's global card. */
  mailboxId: string | null;
}

/** The target layer's cards of these entries, by entry id (the member's own only). */
export async function cardsOfEntries(target: ImportTarget, entryIds: string[], client: Db = db()): Promise<Map<string, Record<string, string | null>>> {
  if (entryIds.length === 0) return new Map();
  const where = { entryId: { in: entryIds } };
  if (target.layer === 'shared') {
    const cards = await client.contactSharedCard.findMany({ where, select: { entryId: true, displayName: true, language: true, status: true, orgNotes: true } });
    return new Map(cards.map(({ entryId, ...fields }) => [entryId, fields]));
  }
  if (target.mailboxId) {
    const cards = await client.contactMailboxCard.findMany({
      where: { ...where, memberId: target.memberId, mailboxId: target.mailboxId },
      select: { entryId: true, formality: true, tone: true, language: true, personalNotes: true },
    });
    return new Map(cards.map(({ entryId, ...fields }) => [entryId, fields]));
  }
  const cards = await client.contactMemberCard.findMany({
    where: { ...where, memberId: target.memberId },
    select: { entryId: true, formality: true, tone: true, language: true, personalNotes: true },
  });
  return new Map(cards.map(({ entryId, ...fields }) => [entryId, fields]));
}

export interface CardWrite {
  entryId: string;
  fields: Record<string, string | null>;
}

const text = (fields: Record<string, string | null>, name: string) => fields[name] ?? null;

/**
 * Creates or replaces the cards given (their whole fields: the caller merged what the file carries
 * with what the card had). A member card's signature is never touched (a new card has none).
 */
export async function writeCards(tx: Tx, target: ImportTarget, writes: CardWrite[]): Promise<void> {
  if (writes.length === 0) return;
  if (target.layer === 'shared') {
    const rows = writes.map((write) => ({
      entry_id: write.entryId,
      display_name: text(write.fields, 'displayName'),
      language: text(write.fields, 'language'),
      status: text(write.fields, 'status'),
      org_notes: text(write.fields, 'orgNotes'),
    }));
    await tx.$executeRaw`
      INSERT INTO contact_shared_cards (id, entry_id, display_name, language, status, org_notes, updated_by, updated_at)
      SELECT gen_random_uuid(), r.entry_id, r.display_name, r.language, r.status, r.org_notes, ${target.memberId}::uuid, now()
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(entry_id uuid, display_name text, language text, status text, org_notes text)
      ON CONFLICT (entry_id) DO UPDATE SET
        display_name = EXCLUDED.display_name, language = EXCLUDED.language, status = EXCLUDED.status,
        org_notes = EXCLUDED.org_notes, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`;
    return;
  }
  const rows = writes.map((write) => ({
    entry_id: write.entryId,
    formality: text(write.fields, 'formality'),
    tone: text(write.fields, 'tone'),
    language: text(write.fields, 'language'),
    personal_notes: text(write.fields, 'personalNotes'),
  }));
  const json = JSON.stringify(rows);
  if (target.mailboxId) {
    await tx.$executeRaw`
      INSERT INTO contact_mailbox_cards (id, entry_id, member_id, mailbox_id, formality, tone, language, personal_notes, updated_at)
      SELECT gen_random_uuid(), r.entry_id, ${target.memberId}::uuid, ${target.mailboxId}::uuid, r.formality, r.tone, r.language, r.personal_notes, now()
      FROM jsonb_to_recordset(${json}::jsonb) AS r(entry_id uuid, formality text, tone text, language text, personal_notes text)
      ON CONFLICT (entry_id, mailbox_id) DO UPDATE SET
        formality = EXCLUDED.formality, tone = EXCLUDED.tone, language = EXCLUDED.language,
        personal_notes = EXCLUDED.personal_notes, updated_at = EXCLUDED.updated_at`;
    return;
  }
  await tx.$executeRaw`
    INSERT INTO contact_member_cards (id, entry_id, member_id, formality, tone, language, personal_notes, updated_at)
    SELECT gen_random_uuid(), r.entry_id, ${target.memberId}::uuid, r.formality, r.tone, r.language, r.personal_notes, now()
    FROM jsonb_to_recordset(${json}::jsonb) AS r(entry_id uuid, formality text, tone text, language text, personal_notes text)
    ON CONFLICT (entry_id, member_id) DO UPDATE SET
      formality = EXCLUDED.formality, tone = EXCLUDED.tone, language = EXCLUDED.language,
      personal_notes = EXCLUDED.personal_notes, updated_at = EXCLUDED.updated_at`;
}

export interface ExportRow {
  kind: string;
  value: string;
  displayName: string | null;
  language: string | null;
  status: string | null;
  notes: string | null;
  formality: string | null;
  tone: string | null;
}

/**
 * One page of the layer's cards after (kind, value), in that order: keyset pages read from the
 * entries' unique (kind, value) index, so no cursor or connection is held between two pages.
 */
export function exportPage(target: ImportTarget, after: EntryKey | null, limit: number): Promise<ExportRow[]> {
  const afterKind = after?.kind ?? '';
  const afterValue = after?.value ?? '';
  if (target.layer === 'shared') {
    return db().$queryRaw<ExportRow[]>`
      SELECT e.kind, e.value, c.display_name AS "displayName", c.language, c.status, c.org_notes AS notes,
             NULL::text AS formality, NULL::text AS tone
      FROM contact_entries e JOIN contact_shared_cards c ON c.entry_id = e.id
      WHERE (e.kind, e.value) > (${afterKind}, ${afterValue})
      ORDER BY e.kind, e.value
      LIMIT ${limit}`;
  }
  if (target.mailboxId) {
    return db().$queryRaw<ExportRow[]>`
      SELECT e.kind, e.value, NULL::text AS "displayName", c.language, NULL::text AS status, c.personal_notes AS notes, c.formality, c.tone
      FROM contact_entries e JOIN contact_mailbox_cards c ON c.entry_id = e.id
      WHERE c.member_id = ${target.memberId}::uuid AND c.mailbox_id = ${target.mailboxId}::uuid AND (e.kind, e.value) > (${afterKind}, ${afterValue})
      ORDER BY e.kind, e.value
      LIMIT ${limit}`;
  }
  return db().$queryRaw<ExportRow[]>`
    SELECT e.kind, e.value, NULL::text AS "displayName", c.language, NULL::text AS status, c.personal_notes AS notes, c.formality, c.tone
    FROM contact_entries e JOIN contact_member_cards c ON c.entry_id = e.id
    WHERE c.member_id = ${target.memberId}::uuid AND (e.kind, e.value) > (${afterKind}, ${afterValue})
    ORDER BY e.kind, e.value
    LIMIT ${limit}`;
}
