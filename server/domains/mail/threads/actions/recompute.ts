/**
 * STAND-IN for the sync's `recomputeThreads(tx, threadIds)` (server/core/mail/threads/attach.ts on
 * branch h-sync, not merged here): the same columns from the same rules, so the lead can swap the
 * import when both land. Rewrites a thread's counts, flags, last message time, snippet, subject,
 * folder keys (with labels) and participants from its messages; deletes the threads left empty.
 */
import type { Tx } from '../../../../core/db';

type Sql = Pick<Tx, '$queryRawUnsafe' | '$executeRawUnsafe'>;

export async function recomputeThreads(tx: Sql, threadIds: Iterable<string>): Promise<string[]> {
  const ids = [...new Set(threadIds)];
  if (ids.length === 0) return [];
  await tx.$executeRawUnsafe(
    `UPDATE mail_threads t SET message_count = a.n, unread_count = a.unread, flagged = a.flagged, has_attachments = a.attachments,
            last_message_at = a.last, snippet = a.snippet, subject = a.subject, folder_keys = f.folders,
            participants = p.participants, participant_count = pc.participant_count, updated_at = now()
       FROM unnest($1::uuid[]) AS ids(id)
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT m.seen)::int AS unread, coalesce(bool_or(m.flagged), false) AS flagged,
                coalesce(bool_or(m.has_attachments), false) AS attachments, max(m.received_at) AS last,
                (array_agg(m.snippet ORDER BY m.received_at DESC, m.id DESC))[1] AS snippet,
                (array_agg(m.subject ORDER BY m.received_at, m.id))[1] AS subject
           FROM mail_messages m WHERE m.thread_id = ids.id) a
       CROSS JOIN LATERAL (
         SELECT coalesce(array_agg(DISTINCT k ORDER BY k), ARRAY[]::text[]) AS folders
           FROM mail_messages m, unnest(array_prepend(m.folder_key, m.labels)) AS k WHERE m.thread_id = ids.id) f
       CROSS JOIN LATERAL (
         SELECT coalesce(jsonb_agg(x.person ORDER BY x.first_at, x.email), '[]'::jsonb) AS participants
           FROM (SELECT lower(m.from_email) AS email, min(m.received_at) AS first_at,
                        jsonb_strip_nulls(jsonb_build_object('name', (array_agg(m.from_name ORDER BY m.received_at, m.id))[1],
                                                             'email', (array_agg(m.from_email ORDER BY m.received_at, m.id))[1])) AS person
                   FROM mail_messages m WHERE m.thread_id = ids.id AND m.from_email IS NOT NULL
                  GROUP BY lower(m.from_email) ORDER BY first_at, email LIMIT 3) x) p
       CROSS JOIN LATERAL (
         SELECT count(DISTINCT lower(m.from_email))::int AS participant_count
           FROM mail_messages m WHERE m.thread_id = ids.id AND m.from_email IS NOT NULL) pc
      WHERE t.id = ids.id AND a.n > 0`,
    ids,
  );
  const emptied = await tx.$queryRawUnsafe<{ id: string }[]>(
    `DELETE FROM mail_threads t WHERE t.id = ANY($1::uuid[]) AND NOT EXISTS (SELECT 1 FROM mail_messages m WHERE m.thread_id = t.id) RETURNING t.id`,
    ids,
  );
  return emptied.map((row) => row.id);
}
