/**
 * The address book's part of the webmail's recipient suggestions (compose's autocompletion): the
 * contact entries the member sees (a shared card, their own card or one of their mailbox cards) whose
 * address or shared display name contains the typed text. Bounded: each way in reads at most
 * `candidatesPerWay` matching entries from its index (the trigram GIN indexes of `contact_entries.value`
 * and `contact_shared_cards.display_name`; the member's cards by `member_id`), then the visible ones are
 * ranked: an address starting with the text first, then the newest card.
 */
import { db } from '../../core/db';
import { likePattern } from './repo-list';

const candidatesPerWay = 200;

export async function findSuggestedEntries(memberId: string, q: string, limit: number): Promise<{ value: string; displayName: string | null }[]> {
  const contains = likePattern(q);
  const prefix = `${likePattern(q).slice(1)}`;
  return db().$queryRaw<{ value: string; displayName: string | null }[]>`
    WITH candidates AS (
      (SELECT e.id FROM contact_entries e JOIN contact_shared_cards s ON s.entry_id = e.id
        WHERE e.kind = 'contact' AND e.value LIKE ${contains} LIMIT ${candidatesPerWay})
      UNION
      (SELECT e.id FROM contact_shared_cards s JOIN contact_entries e ON e.id = s.entry_id
        WHERE e.kind = 'contact' AND s.display_name ILIKE ${contains} LIMIT ${candidatesPerWay})
      UNION
      (SELECT e.id FROM contact_member_cards m JOIN contact_entries e ON e.id = m.entry_id
        WHERE m.member_id = ${memberId}::uuid AND e.kind = 'contact' AND e.value LIKE ${contains} LIMIT ${candidatesPerWay})
      UNION
      (SELECT e.id FROM contact_mailbox_cards b JOIN contact_entries e ON e.id = b.entry_id
        WHERE b.member_id = ${memberId}::uuid AND e.kind = 'contact' AND e.value LIKE ${contains} LIMIT ${candidatesPerWay})
    )
    SELECT e.value, s.display_name AS "displayName"
      FROM candidates c
      JOIN contact_entries e ON e.id = c.id
      LEFT JOIN contact_shared_cards s ON s.entry_id = e.id
      LEFT JOIN contact_member_cards m ON m.entry_id = e.id AND m.member_id = ${memberId}::uuid
      LEFT JOIN LATERAL (SELECT max(mb.updated_at) AS at FROM contact_mailbox_cards mb WHERE mb.entry_id = e.id AND mb.member_id = ${memberId}::uuid) b ON TRUE
     WHERE s.id IS NOT NULL OR m.id IS NOT NULL OR b.at IS NOT NULL
     ORDER BY (e.value LIKE ${prefix}) DESC, GREATEST(s.updated_at, m.updated_at, b.at) DESC NULLS LAST, e.id
     LIMIT ${limit}`;
}
