/**
 * A mailbox's frequent correspondents, from its mirror (the webmail's recipient suggestions, issue 22):
 * the senders of the mail it received and the recipients (To, Cc) of the mail it sent, counted over its
 * latest `recentMessages` messages (the `(mailbox_id, received_at DESC, id DESC)` index: a bounded read
 * whatever the mailbox's size), the mailbox's own address left out, most frequent first, then the most
 * recent. The caller has checked that the mailbox is the member's.
 */
import { db } from '../../../core/db';

export const recentMessages = 2_000;

/** `q` as a LIKE pattern: its own `%`, `_` and `\` matched literally. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

export interface Correspondent {
  address: string;
  name: string | null;
  messages: number;
  lastAt: Date;
}

export function findFrequentCorrespondents(mailboxId: string, mailboxAddress: string, q: string, limit: number): Promise<Correspondent[]> {
  const pattern = likePattern(q.trim().toLowerCase());
  return db().$queryRaw<Correspondent[]>`
    WITH recent AS (
      SELECT from_email, from_name, recipients, is_from_self, received_at
        FROM mail_messages
       WHERE mailbox_id = ${mailboxId}::uuid
       ORDER BY received_at DESC, id DESC
       LIMIT ${recentMessages}
    ), people AS (
      SELECT lower(from_email) AS address, from_name AS name, received_at FROM recent WHERE NOT is_from_self AND from_email IS NOT NULL
      UNION ALL
      SELECT lower(r.value->>'email'), r.value->>'name', recent.received_at
        FROM recent,
             jsonb_array_elements(
               (CASE WHEN jsonb_typeof(recipients->'to') = 'array' THEN recipients->'to' ELSE '[]'::jsonb END)
               || (CASE WHEN jsonb_typeof(recipients->'cc') = 'array' THEN recipients->'cc' ELSE '[]'::jsonb END)) r
       WHERE recent.is_from_self AND jsonb_typeof(r.value) = 'object' AND r.value->>'email' IS NOT NULL
    )
    SELECT address,
           (array_agg(name ORDER BY received_at DESC) FILTER (WHERE name IS NOT NULL AND name <> ''))[1] AS name,
           count(*)::int AS messages,
           max(received_at) AS "lastAt"
      FROM people
     WHERE address <> lower(${mailboxAddress}) AND address <> ''
       AND (address LIKE ${pattern} OR lower(coalesce(name, '')) LIKE ${pattern})
     GROUP BY address
     ORDER BY messages DESC, "lastAt" DESC, address
     LIMIT ${limit}`;
}
