/**
 * The list's statement (GET /api/v1/contacts): one page of the entries a member sees, newest first by
 * the last update of a card they see in the chosen layers, keyset-paged on (that time, entry id).
 *
 * Shape, for 100,000 entries: with `q`, the matching entries come first from trigram GIN indexes
 * (pg_trgm: `contact_entries.value`, the shared cards' display name and notes, the member's cards'
 * notes), and only those are ranked; without `q`, the member's cards come by `member_id` and the
 * shared cards whole. The ranking is a group by entry over the visible cards, then a top-N sort.
 *
 * That group would take every visible card (every shared card) without `q` and `kind`, and every matching
 * one with a `q` that many entries match: the fast path (`newestEntries`) reads instead the newest cards
 * below the cursor of each layer from its `updated_at` index, `fastCards` of each (more with `q` or
 * `kind`, whose rule it then applies to the entries read), and ranks those. An entry's rank is its newest
 * visible card, so every entry whose newest card is newer than the oldest card read from a layer that had
 * more is ranked exactly; when fewer than a page of such entries come out, the full statement runs.
 */
import { Prisma } from '../../generated/prisma/client';
import { db } from '../../core/db';
import type { CursorPosition } from '../../core/http/cursor';
import type { ContactKind } from './normalise';

export interface ListFilter {
  memberId: string;
  kind?: ContactKind;
  /** Already lower-cased; matched as a substring. */
  q?: string;
  layer: 'all' | 'shared' | 'member';
  /** The member's mailbox whose cards count (null: every mailbox card of the member). */
  mailboxId: string | null;
  after: CursorPosition | null;
  limit: number;
}

/** `q` as a LIKE pattern: its own `%`, `_` and `\` matched literally. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** Cards read per layer by the fast path: a page's worth several times over (an entry has up to three visible cards). */
export const fastCardsPerPage = 4;
/**
 * With `q` or `kind` the fast path reads more (20 pages' worth per layer), then keeps the entries that match: a `q`
 * that matches at least ~5 % of the newest entries fills a page from them (a common word, a company's domain: the
 * full statement would rank every matching entry, 100,000 for `company`, ~1 s); a rarer one falls back to the full
 * statement, whose trigram indexes are fast precisely when few entries match. A `q` with fewer than `manyMatches`
 * matches goes there at once (one capped count first).
 */
export const fastCardsPerFilteredPage = 20;

/** Runs one statement: Prisma by default; the bench runs the very same statements on bare pg. */
export type RunSql = <T>(statement: Prisma.Sql) => Promise<T[]>;
const viaPrisma: RunSql = <T>(statement: Prisma.Sql) => db().$queryRaw<T[]>(statement);

/** A `q` with fewer matches than this (values, shared names and notes, own notes, counted with repeats) goes to the full statement at once. */
export const manyMatches = 2_000;

export async function listEntryPage(filter: ListFilter, run: RunSql = viaPrisma): Promise<{ id: string; at: Date }[]> {
  const filtered = Boolean(filter.q || filter.kind);
  // A rare `q` is the trigram indexes' case: the fast path would read its cards for nothing (~40 ms here).
  const tryFast = !filter.q || (await run<{ n: number }>(matchCountSql(filter.q, filter.memberId, manyMatches)))[0]!.n >= manyMatches;
  if (tryFast) {
    const fast = await newestEntries(filter, (filter.limit + 1) * (filtered ? fastCardsPerFilteredPage : fastCardsPerPage), run);
    if (fast) return fast;
  }
  return run<{ id: string; at: Date }>(rankedEntriesSql(filter));
}

/** How many values, shared names or notes and own notes match `q`, counted up to `cap` per source (each source stops there). */
export function matchCountSql(q: string, memberId: string, cap: number): Prisma.Sql {
  const pattern = likePattern(q);
  return Prisma.sql`SELECT count(*)::int AS n FROM (
      (SELECT id FROM contact_entries WHERE value ILIKE ${pattern} LIMIT ${cap})
      UNION ALL (SELECT entry_id FROM contact_shared_cards WHERE display_name ILIKE ${pattern} OR org_notes ILIKE ${pattern} LIMIT ${cap})
      UNION ALL (SELECT entry_id FROM contact_member_cards WHERE member_id = ${memberId}::uuid AND personal_notes ILIKE ${pattern} LIMIT ${cap})
    ) AS found`;
}

type Card = { entry_id: string; at: Date; layer: number };

/**
 * The fast path: null when the cards read cannot decide a whole page. With `q` or `kind`, the entries ranked from
 * the cards read are kept when they match (`matchingEntriesSql`, the full statement's rule on those entries only).
 */
export async function newestEntries(filter: ListFilter, perLayer: number, run: RunSql = viaPrisma): Promise<{ id: string; at: Date }[] | null> {
  const after = filter.after;
  const below = (table: string) => (after ? Prisma.sql`AND (${Prisma.raw(table)}.updated_at, ${Prisma.raw(table)}.entry_id) < (${after.at}::timestamptz, ${after.id}::uuid)` : Prisma.empty);
  const mailboxCondition = filter.mailboxId ? Prisma.sql`AND c.mailbox_id = ${filter.mailboxId}::uuid` : Prisma.empty;
  const branches: Prisma.Sql[] = [];
  if (filter.layer !== 'member') {
    branches.push(Prisma.sql`(SELECT s.entry_id, s.updated_at AS at, 0 AS layer FROM contact_shared_cards s WHERE TRUE ${below('s')} ORDER BY s.updated_at DESC, s.entry_id DESC LIMIT ${perLayer})`);
  }
  if (filter.layer !== 'shared') {
    branches.push(
      Prisma.sql`(SELECT m.entry_id, m.updated_at AS at, 1 AS layer FROM contact_member_cards m WHERE m.member_id = ${filter.memberId}::uuid ${below('m')} ORDER BY m.updated_at DESC, m.entry_id DESC LIMIT ${perLayer})`,
      Prisma.sql`(SELECT c.entry_id, c.updated_at AS at, 2 AS layer FROM contact_mailbox_cards c WHERE c.member_id = ${filter.memberId}::uuid ${mailboxCondition} ${below('c')} ORDER BY c.updated_at DESC, c.entry_id DESC LIMIT ${perLayer})`,
    );
  }
  const cards = await run<Card>(Prisma.sql`${Prisma.join(branches, ' UNION ALL ')}`);
  // The cards newer than `cutoff` are all read: beyond it a layer that filled its quota may hold more.
  let cutoff = -Infinity;
  for (const layer of [0, 1, 2]) {
    const ofLayer = cards.filter((card) => card.layer === layer);
    if (ofLayer.length >= perLayer) cutoff = Math.max(cutoff, Math.min(...ofLayer.map((card) => card.at.getTime())));
  }
  const newest = new Map<string, Date>();
  for (const card of cards) {
    const seen = newest.get(card.entry_id);
    if (!seen || seen < card.at) newest.set(card.entry_id, card.at);
  }
  let ranked = [...newest.entries()]
    .map(([id, at]) => ({ id, at }))
    .filter((entry) => entry.at.getTime() > cutoff)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  if ((filter.q || filter.kind) && ranked.length > 0) {
    const matching = new Set((await run<{ id: string }>(matchingEntriesSql(filter, ranked.map((entry) => entry.id)))).map((row) => row.id));
    ranked = ranked.filter((entry) => matching.has(entry.id));
  }
  // An entry with a visible card at or above the cursor was on an earlier page.
  const shown = after ? await entriesShownBefore(filter, after, ranked.map((entry) => entry.id), run) : new Set<string>();
  const page = ranked.filter((entry) => !shown.has(entry.id)).slice(0, filter.limit + 1);
  const complete = cutoff === -Infinity || page.length === filter.limit + 1;
  return complete ? page : null;
}

/** Of these entries, those with a visible card at or above the cursor's position. */
async function entriesShownBefore(filter: ListFilter, after: CursorPosition, ids: string[], run: RunSql): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const list = Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`));
  const atOrAbove = (table: string) => Prisma.sql`(${Prisma.raw(table)}.updated_at, ${Prisma.raw(table)}.entry_id) >= (${after.at}::timestamptz, ${after.id}::uuid)`;
  const mailboxCondition = filter.mailboxId ? Prisma.sql`AND c.mailbox_id = ${filter.mailboxId}::uuid` : Prisma.empty;
  const branches: Prisma.Sql[] = [];
  if (filter.layer !== 'member') branches.push(Prisma.sql`SELECT s.entry_id FROM contact_shared_cards s WHERE s.entry_id IN (${list}) AND ${atOrAbove('s')}`);
  if (filter.layer !== 'shared') {
    branches.push(
      Prisma.sql`SELECT m.entry_id FROM contact_member_cards m WHERE m.member_id = ${filter.memberId}::uuid AND m.entry_id IN (${list}) AND ${atOrAbove('m')}`,
      Prisma.sql`SELECT c.entry_id FROM contact_mailbox_cards c WHERE c.member_id = ${filter.memberId}::uuid ${mailboxCondition} AND c.entry_id IN (${list}) AND ${atOrAbove('c')}`,
    );
  }
  const rows = await run<{ entry_id: string }>(Prisma.sql`${Prisma.join(branches, ' UNION ')}`);
  return new Set(rows.map((row) => row.entry_id));
}

/**
 * Of these entries, those of the filter's `kind` that match its `q` as the full statement's `matched` does: the
 * value, the shared display name or notes, the member's own notes, their mailbox cards' notes (of the mailbox
 * viewed, with `mailboxId`).
 */
export function matchingEntriesSql(filter: ListFilter, ids: string[]): Prisma.Sql {
  const pattern = filter.q ? likePattern(filter.q) : null;
  const kindCondition = filter.kind ? Prisma.sql`AND e.kind = ${filter.kind}` : Prisma.empty;
  const mailboxCondition = filter.mailboxId ? Prisma.sql`AND c.mailbox_id = ${filter.mailboxId}::uuid` : Prisma.empty;
  const matchCondition = pattern
    ? Prisma.sql`AND (e.value ILIKE ${pattern}
        OR EXISTS (SELECT 1 FROM contact_shared_cards s WHERE s.entry_id = e.id AND (s.display_name ILIKE ${pattern} OR s.org_notes ILIKE ${pattern}))
        OR EXISTS (SELECT 1 FROM contact_member_cards m WHERE m.entry_id = e.id AND m.member_id = ${filter.memberId}::uuid AND m.personal_notes ILIKE ${pattern})
        OR EXISTS (SELECT 1 FROM contact_mailbox_cards c WHERE c.entry_id = e.id AND c.member_id = ${filter.memberId}::uuid ${mailboxCondition} AND c.personal_notes ILIKE ${pattern}))`
    : Prisma.empty;
  return Prisma.sql`SELECT e.id FROM contact_entries e WHERE e.id = ANY(${ids}::uuid[]) ${kindCondition} ${matchCondition}`;
}

/** The full statement: every visible (and, with `q`, matching) entry ranked. */
export function rankedEntries(filter: ListFilter): Promise<{ id: string; at: Date }[]> {
  return db().$queryRaw<{ id: string; at: Date }[]>(rankedEntriesSql(filter));
}

/** The full statement's text and values (bench/contacts.ts runs the same on bare pg: `.text`, `.values`). */
export function rankedEntriesSql(filter: ListFilter): Prisma.Sql {
  const shared = filter.layer !== 'member';
  const member = filter.layer !== 'shared';
  const mailboxCondition = filter.mailboxId ? Prisma.sql`AND c.mailbox_id = ${filter.mailboxId}::uuid` : Prisma.empty;
  const pattern = filter.q ? likePattern(filter.q) : null;

  const matched = pattern
    ? Prisma.sql`matched AS (
        SELECT id AS entry_id FROM contact_entries WHERE value ILIKE ${pattern}
        UNION SELECT entry_id FROM contact_shared_cards WHERE display_name ILIKE ${pattern} OR org_notes ILIKE ${pattern}
        UNION SELECT entry_id FROM contact_member_cards WHERE member_id = ${filter.memberId}::uuid AND personal_notes ILIKE ${pattern}
        UNION SELECT c.entry_id FROM contact_mailbox_cards c WHERE c.member_id = ${filter.memberId}::uuid ${mailboxCondition} AND c.personal_notes ILIKE ${pattern}
      ),`
    : Prisma.empty;
  const onlyMatched = (column: string) => (pattern ? Prisma.sql`AND ${Prisma.raw(column)} IN (SELECT entry_id FROM matched)` : Prisma.empty);

  const branches: Prisma.Sql[] = [];
  if (shared) branches.push(Prisma.sql`SELECT s.entry_id, s.updated_at AS at FROM contact_shared_cards s WHERE TRUE ${onlyMatched('s.entry_id')}`);
  if (member) {
    branches.push(Prisma.sql`SELECT m.entry_id, m.updated_at AS at FROM contact_member_cards m WHERE m.member_id = ${filter.memberId}::uuid ${onlyMatched('m.entry_id')}`);
    branches.push(
      Prisma.sql`SELECT c.entry_id, c.updated_at AS at FROM contact_mailbox_cards c WHERE c.member_id = ${filter.memberId}::uuid ${mailboxCondition} ${onlyMatched('c.entry_id')}`,
    );
  }
  const kindCondition = filter.kind ? Prisma.sql`AND e.kind = ${filter.kind}` : Prisma.empty;
  const cursorCondition = filter.after ? Prisma.sql`AND (r.at, r.entry_id) < (${filter.after.at}::timestamptz, ${filter.after.id}::uuid)` : Prisma.empty;

  return Prisma.sql`
    WITH ${matched} visible AS (${Prisma.join(branches, ' UNION ALL ')}),
    ranked AS (SELECT entry_id, max(at) AS at FROM visible GROUP BY entry_id)
    SELECT e.id, r.at FROM ranked r JOIN contact_entries e ON e.id = r.entry_id
    WHERE TRUE ${kindCondition} ${cursorCondition}
    ORDER BY r.at DESC, r.entry_id DESC
    LIMIT ${filter.limit + 1}`;
}
