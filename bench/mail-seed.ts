/**
 * A mirror of `messageCount` messages for bench/mail-lists.ts, made by SQL generate_series in a few
 * statements (secondary indexes dropped for the load and rebuilt after it, then ANALYZE).
 *
 * Shape: five messages make two threads (3 + 2), one message a minute going back from now; a
 * thread's folder comes from its number: inbox 40 %, archive 35 %, sent 10 %, trash 5 %, spam 3 %,
 * three personal folders 7 %; 80 % seen, 3 % flagged, 10 % with attachments. Subjects and previews are
 * drawn from a 50-word vocabulary (each word in about 6 % of the messages), plus `zephyr` in one
 * message of 1,000 (rare), and 2,000 senders.
 */
import type pg from 'pg';

export const benchFolders = [
  { key: 'INBOX', role: 'inbox' },
  { key: 'Archive', role: 'archive' },
  { key: 'Sent', role: 'sent' },
  { key: 'Trash', role: 'trash' },
  { key: 'Junk', role: 'spam' },
  { key: 'Drafts', role: 'drafts' },
  { key: 'Projects', role: null },
  { key: 'Projects/Alpha', role: null },
  { key: 'Receipts', role: null },
] as const;

export const vocabulary = [
  'invoice', 'meeting', 'project', 'report', 'update', 'budget', 'review', 'schedule', 'contract', 'proposal',
  'delivery', 'payment', 'order', 'customer', 'support', 'release', 'planning', 'quarterly', 'team', 'launch',
  'design', 'feedback', 'request', 'approval', 'deadline', 'travel', 'hotel', 'flight', 'agenda', 'minutes',
  'summary', 'analysis', 'forecast', 'marketing', 'sales', 'training', 'workshop', 'webinar', 'newsletter', 'offer',
  'renewal', 'account', 'security', 'password', 'access', 'server', 'backup', 'migration', 'invitation', 'welcome',
];

/** The folder of thread number n (0-based), as SQL over `n`. */
const folderOfThread = (n: string) => `CASE
  WHEN ${n} % 100 < 40 THEN 'INBOX' WHEN ${n} % 100 < 75 THEN 'Archive' WHEN ${n} % 100 < 85 THEN 'Sent'
  WHEN ${n} % 100 < 90 THEN 'Trash' WHEN ${n} % 100 < 93 THEN 'Junk' WHEN ${n} % 100 < 96 THEN 'Projects/Alpha'
  WHEN ${n} % 100 < 98 THEN 'Projects' ELSE 'Receipts' END`;

const words = `ARRAY[${vocabulary.map((word) => `'${word}'`).join(',')}]`;
/** A word drawn by hashing `seed` (an SQL integer expression): words mix freely across messages. */
const word = (seed: string) => `(${words})[1 + ((hashint4(${seed})::bigint % 50) + 50) % 50]`;

export async function seedMirror(client: pg.Client, mailboxId: string, messageCount: number): Promise<void> {
  const threadCount = Math.ceil((messageCount * 2) / 5);
  await client.query(`INSERT INTO mail_folders (id, mailbox_id, key, role, name, parent_key, depth, updated_at)
    SELECT gen_random_uuid(), $1, f.key, f.role, f.key, CASE WHEN f.key LIKE 'Projects/%' THEN 'Projects' END,
           CASE WHEN f.key LIKE 'Projects/%' THEN 1 ELSE 0 END, now()
      FROM json_to_recordset($2::json) AS f(key text, role text)`, [mailboxId, JSON.stringify(benchFolders)]);
  await client.query('CREATE TEMP TABLE bench_threads (n int PRIMARY KEY, id uuid NOT NULL)');
  await client.query('INSERT INTO bench_threads SELECT n, gen_random_uuid() FROM generate_series(0, $1 - 1) AS n', [threadCount]);
  await client.query(`INSERT INTO mail_threads (id, mailbox_id, subject, subject_key, last_message_at, participants, participant_count, updated_at)
    SELECT b.id, $1, 'Thread ' || b.n, 'thread ' || b.n, now(), '[]'::jsonb, 0, now() FROM bench_threads b`, [mailboxId]);
  // Message j (1-based): thread (j-1)/5*2 + (0 for the first three of each five, else 1).
  await client.query(`INSERT INTO mail_messages (id, mailbox_id, thread_id, provider_key, folder_key, uid, uid_validity, message_id_header,
      subject, snippet, from_name, from_email, received_at, seen, flagged, has_attachments, size, body_complete, ingested_via, updated_at)
    SELECT gen_random_uuid(), $1, b.id, ${folderOfThread('s.thread')} || E'\\n1\\n' || s.j, ${folderOfThread('s.thread')}, s.j, 1,
           '<bench-' || s.j || '@example.test>',
           initcap(${word('s.j * 7')}) || ' ' || ${word('s.j * 13 + 3')} || ' ' || ${word('s.j * 29 + 11')} || CASE WHEN s.j % 997 = 0 THEN ' zephyr' ELSE '' END,
           'About the ' || ${word('s.j * 31 + 5')} || ' and the ' || ${word('s.j * 37 + 17')} || ', see the ' || ${word('s.j * 41 + 23')} || ' before the ' || ${word('s.j * 43 + 29')},
           'Sender ' || (s.j * 13) % 2000, 'user' || (s.j * 13) % 2000 || '@' || (ARRAY['acme','globex','initech','umbrella'])[1 + s.j % 4] || '.test',
           now() - make_interval(mins => s.j), s.j % 5 <> 0, s.j % 33 = 0, s.j % 10 = 0, 2000 + s.j % 5000, true, 'initial', now()
      FROM (SELECT j, (j - 1) / 5 * 2 + CASE WHEN (j - 1) % 5 < 3 THEN 0 ELSE 1 END AS thread FROM generate_series(1, $2) AS j) s
      JOIN bench_threads b ON b.n = s.thread`, [mailboxId, messageCount]);
  // Thread columns from their messages, as the sync's recompute keeps them.
  await client.query(`UPDATE mail_threads t SET
      message_count = a.n, unread_count = a.unread, flagged = a.flagged, has_attachments = a.attachments, last_message_at = a.last,
      folder_keys = a.folders, snippet = a.snippet, subject = a.subject,
      participants = jsonb_build_array(jsonb_build_object('name', a.from_name, 'email', a.from_email)), participant_count = 1
    FROM (SELECT thread_id, count(*)::int AS n, count(*) FILTER (WHERE NOT seen)::int AS unread, bool_or(flagged) AS flagged,
                 bool_or(has_attachments) AS attachments, max(received_at) AS last, array_agg(DISTINCT folder_key) AS folders,
                 (array_agg(snippet ORDER BY received_at DESC))[1] AS snippet, (array_agg(subject ORDER BY received_at))[1] AS subject,
                 (array_agg(from_name ORDER BY received_at))[1] AS from_name, (array_agg(from_email ORDER BY received_at))[1] AS from_email
            FROM mail_messages WHERE mailbox_id = $1 GROUP BY thread_id) a
    WHERE t.id = a.thread_id`, [mailboxId]);
  await client.query('UPDATE mailboxes SET message_count = $2 WHERE id = $1', [mailboxId, messageCount]);
  await client.query('DROP TABLE bench_threads');
}

/** Secondary indexes of the mirror's tables, to drop before the load and rebuild after it. */
export async function mirrorIndexes(client: pg.Client): Promise<{ name: string; definition: string }[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE tablename IN ('mail_messages', 'mail_threads') AND indexname NOT LIKE '%_pkey'`,
  );
  return rows;
}
