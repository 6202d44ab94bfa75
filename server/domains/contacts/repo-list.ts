/**
 * The list's statement (GET /api/v1/contacts): one page of the entries a member sees, newest first by
 * the last update of a card they see in the chosen layers, keyset-paged on (that time, entry id).
 *
 * Shape, for 100,000 entries: with `q`, the matching entries come first from trigram GIN indexes
 * (pg_trgm: `contact_entries.value`, the shared cards' display name and notes, the member's cards'
 * notes), and only those are ranked; without `q`, the member's cards come by `member_id` and the
 * shared cards whole. The ranking is a group by entry over the visible cards, then a top-N sort.
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

export async function listEntryPage(filter: ListFilter): Promise<{ id: string; at: Date }[]> {
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

  return db().$queryRaw<{ id: string; at: Date }[]>`
    WITH ${matched} visible AS (${Prisma.join(branches, ' UNION ALL ')}),
    ranked AS (SELECT entry_id, max(at) AS at FROM visible GROUP BY entry_id)
    SELECT e.id, r.at FROM ranked r JOIN contact_entries e ON e.id = r.entry_id
    WHERE TRUE ${kindCondition} ${cursorCondition}
    ORDER BY r.at DESC, r.entry_id DESC
    LIMIT ${filter.limit + 1}`;
}
