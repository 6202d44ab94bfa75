/**
 * The support domain's queries for the sync with the operator's control plane (`./sync-store.ts`): the
 * outbox (member messages not delivered yet, a thread's first message carrying the thread), the
 * operator's changes applied idempotently, and the link's one row (cursor, last exchange, branding).
 *
 * Every statement is safe when several runners sync at once: a delivery or an acknowledgement only
 * changes a message still pending, a team message is keyed by the operator's id (`ON CONFLICT DO
 * NOTHING`), a status or assignee change only applies over an older sequence, and `lockLink`
 * serialises the appliers of a pull.
 */
import { db, type Tx } from '../../core/db';

type Writer = Pick<Tx, '$executeRaw' | '$queryRaw'>;

const linkId = 'instance';

export interface OutboxRow {
  id: string;
  thread_id: string;
  opens_thread: boolean;
  author_name: string;
  author_member_id: string | null;
  body: string;
  created_at: Date;
  attempts: number;
  kind: string;
  subject: string;
}

/**
 * Up to `limit` pending member messages, in `seq` order (the order they were written; a thread's first
 * message first), keeping of each thread only the prefix whose items are all due at `now`: a message
 * waiting for its retry holds back the later messages of its thread, never another thread's.
 */
export function findDueOutbox(now: Date, limit: number, tx: Writer = db()): Promise<OutboxRow[]> {
  return tx.$queryRaw<OutboxRow[]>`
    WITH pending AS (
      SELECT m.id, m.thread_id, m.seq, m.opens_thread, m.author_name, m.author_member_id, m.body, m.created_at, m.attempts,
             bool_and(m.next_attempt_at IS NULL OR m.next_attempt_at <= ${now}::timestamptz) OVER (PARTITION BY m.thread_id ORDER BY m.seq) AS due
        FROM support_messages m
       WHERE m.delivered_at IS NULL AND m.direction = 'member'
    )
    SELECT p.id, p.thread_id, p.opens_thread, p.author_name, p.author_member_id, p.body, p.created_at, p.attempts, t.kind, t.subject
      FROM pending p JOIN support_threads t ON t.id = p.thread_id
     WHERE p.due
     ORDER BY p.seq
     LIMIT ${limit}::int`;
}

export interface ChangedThread {
  id: string;
  authorMemberId: string | null;
}

/**
 * A member message (an outbox item or an acknowledged message) is delivered: no longer pending. Null
 * when it already was, or is not ours (`threadId`, when given, must match).
 */
export async function markMessageDelivered(tx: Writer, messageId: string, at: Date, threadId: string | null = null): Promise<ChangedThread | null> {
  const rows = await tx.$queryRaw<{ id: string; author_member_id: string | null }[]>`
    WITH delivered AS (
      UPDATE support_messages SET delivered_at = ${at}::timestamptz, next_attempt_at = NULL
       WHERE id = ${messageId}::uuid AND direction = 'member' AND delivered_at IS NULL
         AND (${threadId}::uuid IS NULL OR thread_id = ${threadId}::uuid)
      RETURNING thread_id)
    SELECT t.id, t.author_member_id FROM support_threads t JOIN delivered d ON d.thread_id = t.id`;
  const row = rows[0];
  return row ? { id: row.id, authorMemberId: row.author_member_id } : null;
}

/** A delivery failed: one more attempt counted, its error kept, not due again before `nextAttemptAt`. */
export async function recordDeliveryFailure(messageId: string, failure: { error: string; nextAttemptAt: Date }, tx: Writer = db()): Promise<void> {
  await tx.$executeRaw`
    UPDATE support_messages
       SET attempts = attempts + 1, last_error = ${failure.error}, next_attempt_at = ${failure.nextAttemptAt}::timestamptz
     WHERE id = ${messageId}::uuid AND direction = 'member' AND delivered_at IS NULL`;
}

/**
 * A team message, once per operator id: inserted into a thread we know, delivered on arrival, and the
 * thread's activity, count and latest team `seq` (what unread compares) move. Null when the operator id
 * was seen before or the thread is unknown.
 */
export async function insertTeamMessage(
  tx: Writer,
  message: { threadId: string; operatorMessageId: string; authorName: string; body: string; createdAt: Date },
  at: Date,
): Promise<(ChangedThread & { subject: string }) | null> {
  const rows = await tx.$queryRaw<{ id: string; author_member_id: string | null; subject: string }[]>`
    WITH inserted AS (
      INSERT INTO support_messages (id, thread_id, direction, author_name, body, created_at, operator_message_id, delivered_at)
      SELECT gen_random_uuid(), t.id, 'team', ${message.authorName}::text, ${message.body}::text, ${message.createdAt}::timestamptz, ${message.operatorMessageId}::text, ${at}::timestamptz
        FROM support_threads t WHERE t.id = ${message.threadId}::uuid
      ON CONFLICT (operator_message_id) DO NOTHING
      RETURNING thread_id, seq, created_at)
    UPDATE support_threads t
       SET message_count = t.message_count + 1,
           last_team_seq = greatest(coalesce(t.last_team_seq, 0), i.seq),
           last_message_at = greatest(t.last_message_at, i.created_at),
           updated_at = greatest(t.updated_at, ${at}::timestamptz)
      FROM inserted i
     WHERE t.id = i.thread_id
    RETURNING t.id, t.author_member_id, t.subject`;
  const row = rows[0];
  return row ? { id: row.id, authorMemberId: row.author_member_id, subject: row.subject } : null;
}

/** The operator's status of a thread of `kind`, applied only over an older status change (`seq`). */
export async function applyStatus(tx: Writer, change: { threadId: string; kind: string; status: string; seq: bigint }, at: Date): Promise<ChangedThread | null> {
  const rows = await tx.$queryRaw<{ id: string; author_member_id: string | null }[]>`
    UPDATE support_threads
       SET status = ${change.status}, status_seq = ${change.seq}::bigint, updated_at = greatest(updated_at, ${at}::timestamptz)
     WHERE id = ${change.threadId}::uuid AND kind = ${change.kind}
       AND (status_seq IS NULL OR status_seq < ${change.seq}::bigint)
    RETURNING id, author_member_id`;
  const row = rows[0];
  return row ? { id: row.id, authorMemberId: row.author_member_id } : null;
}

/** The operator's assignee of a thread, applied only over an older assignee change (`seq`). */
export async function applyAssignee(tx: Writer, change: { threadId: string; assigneeName: string | null; seq: bigint }, at: Date): Promise<ChangedThread | null> {
  const rows = await tx.$queryRaw<{ id: string; author_member_id: string | null }[]>`
    UPDATE support_threads
       SET assignee_name = ${change.assigneeName}, assignee_seq = ${change.seq}::bigint, updated_at = greatest(updated_at, ${at}::timestamptz)
     WHERE id = ${change.threadId}::uuid
       AND (assignee_seq IS NULL OR assignee_seq < ${change.seq}::bigint)
    RETURNING id, author_member_id`;
  const row = rows[0];
  return row ? { id: row.id, authorMemberId: row.author_member_id } : null;
}

/** The link's row, created when missing and locked (FOR UPDATE) until the pull's transaction ends. */
export async function lockLink(tx: Writer): Promise<void> {
  await tx.$executeRaw`INSERT INTO support_link (id) VALUES (${linkId}) ON CONFLICT (id) DO NOTHING`;
  await tx.$queryRaw`SELECT id FROM support_link WHERE id = ${linkId} FOR UPDATE`;
}

/** The pull's position moves (a null cursor keeps the current one) and the exchange succeeded at `at`. */
export async function moveCursor(tx: Writer, cursor: string | null, at: Date): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO support_link (id, cursor, synced_at) VALUES (${linkId}, ${cursor}, ${at}::timestamptz)
    ON CONFLICT (id) DO UPDATE SET cursor = coalesce(excluded.cursor, support_link.cursor), synced_at = excluded.synced_at`;
}

export async function recordSynced(at: Date, tx: Writer = db()): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO support_link (id, synced_at) VALUES (${linkId}, ${at}::timestamptz)
    ON CONFLICT (id) DO UPDATE SET synced_at = excluded.synced_at`;
}

export async function readLink(tx: Pick<Tx, 'supportLink'> = db()) {
  return tx.supportLink.findUnique({ where: { id: linkId } });
}

/** The operator's branding as fetched (null: the operator has none), kept as JSON. */
export async function storeBranding(branding: object | null, at: Date, tx: Writer = db()): Promise<void> {
  const json = branding === null ? null : JSON.stringify(branding);
  await tx.$executeRaw`
    INSERT INTO support_link (id, branding, branding_fetched_at) VALUES (${linkId}, ${json}::jsonb, ${at}::timestamptz)
    ON CONFLICT (id) DO UPDATE SET branding = excluded.branding, branding_fetched_at = excluded.branding_fetched_at`;
}
