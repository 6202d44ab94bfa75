/**
 * Threads in the database: the one place that assigns messages to threads and recomputes a thread's
 * columns from its messages (counts, flags, participants, snippet, subject, last message time,
 * folder keys with labels). Callers run it in the transaction that changed the messages, so a thread
 * is never seen out of step with its messages.
 *
 * - `planMessageThreads` (before inserting messages): looks up what the new messages link to, applies
 *   the pure rule (./plan.ts) and merges linked threads; returns the thread of each message, for the
 *   insert to carry, and the new threads, which the insert writes itself (`createdThreadsCte`) with
 *   their columns computed from the rows it inserts: written once, not created and then rewritten.
 * - `recomputeThreads` (after any change to messages: insert, flags, move, labels, removal): rewrites
 *   the columns of the given threads; threads left without messages are deleted.
 * - `recomputeThreadPreviews` (after the body pass filled messages listed from their header): the
 *   snippet and the attachments mark only, by the same rules, where they changed.
 */
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../core/db';
import { planThreads, threadingIds, subjectWindowDays, type KnownMessage, type KnownThread, type ThreadingMessage } from './plan';

type Sql = Pick<Tx, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** Participants shown on a thread. */
export const threadParticipantsShown = 3;

/** What new messages may join: mirrored messages sharing one of their ids, recent threads with one of their subject keys. */
export interface ThreadLookups {
  known: KnownMessage[];
  threads: KnownThread[];
}

/**
 * The lookups of `planMessageThreads` as SQL: `$1` the mailbox, `$2` the messages' ids (their
 * Message-ID, In-Reply-To and References), `$3` their subject keys, `$4`/`$5` the subject window;
 * one row, `known` and `threads`, each a JSON array. One statement, so that a caller may read it
 * together with its own (the sync's batch writer does).
 */
export const threadLookupColumnsSql = `
  (SELECT coalesce(json_agg(json_build_object('threadId', k.thread_id, 'id', k.id)), '[]'::json) FROM (
     -- (thread, id) pairs only: a thread of thousands of messages sharing a root answers once.
     -- Each id looked up alone, through the index made for its link: as one OR (or one test against all
     -- the ids) the planner estimated most of the mailbox and read all of it for every batch, a sync's
     -- cost growing with the square of its mailbox. Per id, each index is the cheap path as long as the
     -- planner knows roughly how many rows the mailbox has: a sync refreshes those statistics after its
     -- first batch and at each doubling (../mirror/writer.ts), and until then the mailbox is small.
     SELECT DISTINCT m.thread_id, i.id
       FROM unnest($2::text[]) AS linked(id)
      CROSS JOIN LATERAL (
             SELECT thread_id, message_id_header, in_reply_to, "references" FROM mail_messages
              WHERE mailbox_id = $1::uuid AND message_id_header = linked.id
             UNION ALL
             SELECT thread_id, message_id_header, in_reply_to, "references" FROM mail_messages
              WHERE mailbox_id = $1::uuid AND in_reply_to = linked.id
             UNION ALL
             SELECT thread_id, message_id_header, in_reply_to, "references" FROM mail_messages
              WHERE mailbox_id = $1::uuid AND "references" @> ARRAY[linked.id]) m
      CROSS JOIN LATERAL unnest(array[m.message_id_header, m.in_reply_to] || m."references") AS i(id)
      WHERE m.thread_id IS NOT NULL AND cardinality($2::text[]) > 0
        AND i.id = ANY($2::text[])
      LIMIT 20000) k) AS known,
  (SELECT coalesce(json_agg(json_build_object('threadId', t.id, 'subjectKey', t.subject_key, 'lastMessageAt', t.last_message_at) ORDER BY t.last_message_at DESC), '[]'::json) FROM (
     SELECT id, subject_key, last_message_at FROM mail_threads
      WHERE mailbox_id = $1::uuid AND cardinality($3::text[]) > 0 AND subject_key = ANY($3::text[])
        AND last_message_at BETWEEN $4::timestamptz AND $5::timestamptz
      ORDER BY last_message_at DESC LIMIT 2000) t) AS threads`;

/** The parameters `$2`-`$5` of `threadLookupColumnsSql` for these messages. */
export function threadLookupParams(messages: readonly ThreadingMessage[]): [string[], string[], Date, Date] {
  const keys = [...new Set(messages.map((message) => message.subjectKey).filter((key): key is string => !!key))];
  const times = messages.map((message) => message.receivedAt.getTime());
  const windowMs = subjectWindowDays * 24 * 3600 * 1000;
  const from = times.length > 0 ? Math.min(...times) - windowMs : 0;
  const to = times.length > 0 ? Math.max(...times) + windowMs : 0;
  return [threadingIds(messages), keys, new Date(from), new Date(to)];
}

/** The `known` and `threads` columns of `threadLookupColumnsSql`, read. */
export function threadLookupsOf(row: { known: Array<{ threadId: string; id: string }>; threads: Array<{ threadId: string; subjectKey: string; lastMessageAt: string }> }): ThreadLookups {
  return {
    known: row.known.map((entry) => ({ threadId: entry.threadId, ids: [entry.id] })),
    threads: row.threads.map((entry) => ({ threadId: entry.threadId, subjectKey: entry.subjectKey, lastMessageAt: new Date(entry.lastMessageAt) })),
  };
}

/**
 * Assigns each new message a thread (existing, merged or new) and returns message id → thread id,
 * the existing threads touched (to recompute once the messages are written) and the new threads,
 * which the caller writes with the messages (`createdThreadsCte`), their columns computed from them.
 * `lookups`, when the caller read them already for exactly these messages (or more), saves their
 * statement.
 */
export async function planMessageThreads(
  tx: Sql,
  mailboxId: string,
  messages: readonly ThreadingMessage[],
  lookups?: ThreadLookups,
): Promise<{ threadOf: Map<string, string>; touched: Set<string>; created: Array<{ threadId: string; subjectKey: string | null }> }> {
  if (messages.length === 0) return { threadOf: new Map(), touched: new Set(), created: [] };
  const { known, threads } =
    lookups ?? threadLookupsOf((await tx.$queryRawUnsafe<Parameters<typeof threadLookupsOf>[0][]>(`SELECT ${threadLookupColumnsSql}`, mailboxId, ...threadLookupParams(messages)))[0]!);

  const plan = planThreads(messages, { messages: known, threads }, randomUUID);
  const byId = new Map(messages.map((message) => [message.id, message]));
  const created = plan.created.map(({ threadId, firstMessageId }) => ({ threadId, subjectKey: byId.get(firstMessageId)!.subjectKey }));
  const createdIds = new Set(created.map((thread) => thread.threadId));
  const touched = new Set([...plan.assignments.values()].filter((threadId) => !createdIds.has(threadId)));
  for (const merge of plan.merges) {
    await tx.$executeRawUnsafe(`UPDATE mail_messages SET thread_id = $1::uuid WHERE thread_id = ANY($2::uuid[])`, merge.into, merge.from);
    await tx.$executeRawUnsafe(`UPDATE mail_operations SET thread_id = $1::uuid WHERE thread_id = ANY($2::uuid[])`, merge.into, merge.from);
    await tx.$executeRawUnsafe(`DELETE FROM mail_threads WHERE id = ANY($1::uuid[])`, merge.from);
    touched.add(merge.into);
  }
  return { threadOf: plan.assignments, touched, created };
}

/**
 * Locks these threads' rows until the transaction ends, in id order. A writer that changes a thread's messages
 * takes this before touching them, in the order the webmail's thread actions take their locks (the thread, then
 * its messages): the other way round, a completion moving a message while the member acted on its thread
 * deadlocked with that action (seen in the end-to-end undo journey: a workflow labelling a mail while the runner
 * recorded the operation the workflow's previous step had queued on it).
 */
export async function lockThreads(tx: Sql, threadIds: Iterable<string>): Promise<void> {
  const ids = [...threadIds];
  if (ids.length === 0) return;
  // The rows are locked as the sort hands them over: in id order, whatever order the caller listed them in.
  await tx.$queryRawUnsafe(`SELECT 1 FROM mail_threads WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, ids);
}

/** The message columns a thread's own columns are computed from (`threadColumnsSql`'s input). */
export const threadSourceColumns = 'thread_id, id, seen, flagged, has_attachments, received_at, snippet, subject, folder_key, labels, from_name, from_email';

/** A thread's preview: its newest message's snippet. Over its messages `m`, grouped by thread. */
const snippetAggregate = '(array_agg(m.snippet ORDER BY m.received_at DESC, m.id DESC))[1]';
/** Whether any of its messages has attachments. */
const attachmentsAggregate = 'coalesce(bool_or(m.has_attachments), false)';

/**
 * A thread's columns from its messages, one row per thread: `messages` is a relation (a table
 * expression or a CTE's name) with `threadSourceColumns`, holding every message of each thread
 * computed. Set-wise (grouped, not one look-up per thread) so that the sync's batch writer can run
 * it over the rows its INSERT returns, for the threads that batch opens (`createdThreadsCte`), and
 * recomputeThreads over the mirror, with one rule for both.
 */
function threadColumnsSql(messages: string): string {
  return `
    SELECT a.id, a.n, a.unread, a.flagged, a.attachments, a.last, a.snippet, a.subject,
           coalesce(f.folders, ARRAY[]::text[]) AS folders,
           coalesce(p.participants, '[]'::jsonb) AS participants,
           coalesce(p.participant_count, 0) AS participant_count
      FROM (SELECT m.thread_id AS id,
                   count(*)::int AS n,
                   count(*) FILTER (WHERE NOT m.seen)::int AS unread,
                   coalesce(bool_or(m.flagged), false) AS flagged,
                   ${attachmentsAggregate} AS attachments,
                   max(m.received_at) AS last,
                   ${snippetAggregate} AS snippet,
                   (array_agg(m.subject ORDER BY m.received_at, m.id))[1] AS subject
              FROM ${messages} m GROUP BY m.thread_id) a
      LEFT JOIN (SELECT d.thread_id AS id, array_agg(d.k ORDER BY d.k) AS folders
                   FROM (SELECT DISTINCT m.thread_id, k FROM ${messages} m, unnest(array_prepend(m.folder_key, m.labels)) AS k) d
                  GROUP BY d.thread_id) f ON f.id = a.id
      LEFT JOIN (SELECT r.thread_id AS id,
                        jsonb_agg(r.person ORDER BY r.first_at, r.email) FILTER (WHERE r.place <= ${threadParticipantsShown}) AS participants,
                        count(*)::int AS participant_count
                   FROM (SELECT x.*, row_number() OVER (PARTITION BY x.thread_id ORDER BY x.first_at, x.email) AS place
                           FROM (SELECT m.thread_id, lower(m.from_email) AS email, min(m.received_at) AS first_at,
                                        jsonb_strip_nulls(jsonb_build_object(
                                          'name', (array_agg(m.from_name ORDER BY m.received_at, m.id))[1],
                                          'email', (array_agg(m.from_email ORDER BY m.received_at, m.id))[1])) AS person
                                   FROM ${messages} m
                                  WHERE m.from_email IS NOT NULL
                                  GROUP BY m.thread_id, lower(m.from_email)) x) r
                  GROUP BY r.thread_id) p ON p.id = a.id`;
}

/**
 * A CTE that writes the rows of the threads a batch opens, their columns computed from the batch's
 * messages as the same statement inserts them: `inserted` names the CTE of that INSERT (returning
 * `threadSourceColumns`); the other three name the statement's parameters holding the mailbox, the
 * new threads' ids and their subject keys (`planMessageThreads`'s `created`). A thread whose messages
 * were all skipped (ON CONFLICT) gets no row. The messages' foreign key is checked at the statement's
 * end, when these rows exist.
 */
export function createdThreadsCte(inserted: string, mailboxParam: string, threadIdsParam: string, subjectKeysParam: string): string {
  return `INSERT INTO mail_threads (id, mailbox_id, subject_key, message_count, unread_count, flagged, has_attachments, last_message_at,
             snippet, subject, folder_keys, participants, participant_count, updated_at)
          SELECT s.id, ${mailboxParam}::uuid, c.subject_key, s.n, s.unread, s.flagged, s.attachments, s.last,
                 s.snippet, s.subject, s.folders, s.participants, s.participant_count, now()
            FROM (${threadColumnsSql(`(SELECT ${threadSourceColumns} FROM ${inserted} WHERE thread_id = ANY(${threadIdsParam}::uuid[]))`)}) s
            JOIN unnest(${threadIdsParam}::uuid[], ${subjectKeysParam}::text[]) AS c(id, subject_key) ON c.id = s.id`;
}

/**
 * Rewrites the columns of these threads from their messages; deletes the ones left empty. Returns the
 * ids of the threads deleted. `mayEmpty: false` (messages were only added or changed, none removed or
 * moved out of a thread) spares the statement that looks for empty ones.
 */
export async function recomputeThreads(tx: Sql, threadIds: Iterable<string>, options: { mayEmpty?: boolean } = {}): Promise<string[]> {
  const ids = [...new Set(threadIds)];
  if (ids.length === 0) return [];
  await tx.$executeRawUnsafe(
    `UPDATE mail_threads t SET
        message_count = s.n,
        unread_count = s.unread,
        flagged = s.flagged,
        has_attachments = s.attachments,
        last_message_at = s.last,
        snippet = s.snippet,
        subject = s.subject,
        folder_keys = s.folders,
        participants = s.participants,
        participant_count = s.participant_count,
        updated_at = now()
       FROM (${threadColumnsSql(`(SELECT ${threadSourceColumns} FROM mail_messages WHERE thread_id = ANY($1::uuid[]))`)}) s
      -- The ids named again on the threads' side: joined on s alone, the planner read every thread of the
      -- database (a sequential scan of 16,401 rows for 200 of them, measured) rather than look each one up.
      WHERE t.id = ANY($1::uuid[]) AND t.id = s.id`,
    ids,
  );
  if (options.mayEmpty === false) return [];
  const emptied = await tx.$queryRawUnsafe<{ id: string }[]>(
    `DELETE FROM mail_threads t WHERE t.id = ANY($1::uuid[])
        AND NOT EXISTS (SELECT 1 FROM mail_messages m WHERE m.thread_id = t.id)
     RETURNING t.id`,
    ids,
  );
  return emptied.map((row) => row.id);
}

/**
 * Rewrites only the two columns a message's body changes, the snippet and the attachments mark, of these threads
 * (by the same rules as `recomputeThreads`), and only where they differ: what the body pass needs (a message
 * listed from its header gets its body; nothing else about it moves), without the participants and folders the
 * whole recomputation groups again.
 */
export async function recomputeThreadPreviews(tx: Sql, threadIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(threadIds)];
  if (ids.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE mail_threads t SET snippet = s.snippet, has_attachments = s.attachments, updated_at = now()
       FROM (SELECT m.thread_id AS id, ${snippetAggregate} AS snippet, ${attachmentsAggregate} AS attachments
               FROM mail_messages m WHERE m.thread_id = ANY($1::uuid[]) GROUP BY m.thread_id) s
      WHERE t.id = ANY($1::uuid[]) AND t.id = s.id AND (t.snippet, t.has_attachments) IS DISTINCT FROM (s.snippet, s.attachments)`,
    ids,
  );
}
