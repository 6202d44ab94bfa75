/**
 * The support domain's queries for the routes: threads as a reader sees them (an administrator the whole
 * organisation's, a member their own), a member's writes (a thread with its first message, a message)
 * and read marks. The sync's queries are in `./repo-sync.ts`.
 *
 * Terminology: a *reader* is the member asking; *unread* means a team message whose `seq` is above the
 * reader's read mark (`support_reads.last_read_seq`); *pending* a member message not delivered yet
 * (`delivered_at` null; a team message is delivered when it arrives).
 */
import type { Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { isUuid } from '../../core/ids';

export interface Reader {
  memberId: string;
  /** An administrator reads the organisation's threads. */
  admin: boolean;
}

type Reads = Pick<Tx, 'supportThread' | 'supportMessage' | 'supportRead' | 'supportLink' | '$queryRaw'>;

function visibleTo(reader: Reader): Prisma.SupportThreadWhereInput {
  return reader.admin ? {} : { authorMemberId: reader.memberId };
}

function summarySelect(reader: Reader) {
  return {
    id: true,
    kind: true,
    subject: true,
    status: true,
    assigneeName: true,
    authorName: true,
    authorMemberId: true,
    createdAt: true,
    updatedAt: true,
    lastMessageAt: true,
    messageCount: true,
    lastTeamSeq: true,
    reads: { where: { memberId: reader.memberId }, select: { lastReadSeq: true } },
    _count: { select: { messages: { where: { deliveredAt: null } } } },
  } satisfies Prisma.SupportThreadSelect;
}

/** The reader's threads, most recently active first (`updatedAt`, then id), at most `take`. */
export function findThreadsOf(reader: Reader, take: number, tx: Reads = db()) {
  return tx.supportThread.findMany({
    where: visibleTo(reader),
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take,
    select: summarySelect(reader),
  });
}

export type ThreadSummaryRow = Awaited<ReturnType<typeof findThreadsOf>>[number];

/** How many of the reader's visible threads hold a team message after the reader's read mark. */
export async function countUnreadOf(reader: Reader, tx: Reads = db()): Promise<number> {
  const rows = await tx.$queryRaw<{ count: number }[]>`
    SELECT count(*)::int AS count
      FROM support_threads t
      LEFT JOIN support_reads r ON r.thread_id = t.id AND r.member_id = ${reader.memberId}::uuid
     WHERE t.last_team_seq IS NOT NULL
       AND (r.last_read_seq IS NULL OR r.last_read_seq < t.last_team_seq)
       AND (${reader.admin}::boolean OR t.author_member_id = ${reader.memberId}::uuid)`;
  return rows[0]?.count ?? 0;
}

/** A thread the reader may see, with its messages in order; null for an unknown, malformed or another member's id. */
export async function findVisibleThread(reader: Reader, id: string, tx: Reads = db()) {
  if (!isUuid(id)) return null;
  return tx.supportThread.findFirst({
    where: { id: id.toLowerCase(), ...visibleTo(reader) },
    select: {
      ...summarySelect(reader),
      messages: {
        orderBy: [{ createdAt: 'asc' }, { seq: 'asc' }],
        select: { id: true, direction: true, authorName: true, body: true, createdAt: true, deliveredAt: true },
      },
    },
  });
}

export type ThreadRow = NonNullable<Awaited<ReturnType<typeof findVisibleThread>>>;

/** Locks a visible thread for a new message (FOR UPDATE): messages of one thread take their `seq` in order. */
export async function lockVisibleThread(tx: Tx, reader: Reader, id: string): Promise<string | null> {
  if (!isUuid(id)) return null;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM support_threads
     WHERE id = ${id.toLowerCase()}::uuid AND (${reader.admin}::boolean OR author_member_id = ${reader.memberId}::uuid)
     FOR UPDATE`;
  return rows[0]?.id ?? null;
}

export interface NewThread {
  id: string;
  kind: 'request' | 'conversation';
  subject: string;
  status: string;
  author: { memberId: string; name: string };
  firstMessage: { id: string; body: string };
  at: Date;
}

/** A member's new thread and its first message (the outbox item that carries the thread), pending. */
export async function insertThreadWithFirstMessage(tx: Tx, thread: NewThread): Promise<void> {
  await tx.supportThread.create({
    data: {
      id: thread.id,
      kind: thread.kind,
      subject: thread.subject,
      status: thread.status,
      authorMemberId: thread.author.memberId,
      authorName: thread.author.name,
      messageCount: 1,
      createdAt: thread.at,
      updatedAt: thread.at,
      lastMessageAt: thread.at,
    },
  });
  await tx.supportMessage.create({
    data: {
      id: thread.firstMessage.id,
      threadId: thread.id,
      direction: 'member',
      opensThread: true,
      authorName: thread.author.name,
      authorMemberId: thread.author.memberId,
      body: thread.firstMessage.body,
      createdAt: thread.at,
    },
  });
}

/** A member's message in a thread locked by `lockVisibleThread`: pending, and the thread's activity moves. */
export async function appendMemberMessage(tx: Tx, threadId: string, message: { id: string; body: string; author: { memberId: string; name: string }; at: Date }): Promise<void> {
  await tx.supportMessage.create({
    data: {
      id: message.id,
      threadId,
      direction: 'member',
      authorName: message.author.name,
      authorMemberId: message.author.memberId,
      body: message.body,
      createdAt: message.at,
    },
  });
  await tx.supportThread.update({
    where: { id: threadId },
    data: { messageCount: { increment: 1 }, lastMessageAt: message.at, updatedAt: message.at },
  });
}

/** The reader has seen every message of the thread so far (their mark only; another reader's stays). */
export async function markThreadReadBy(tx: Pick<Tx, '$executeRaw'>, threadId: string, memberId: string, at: Date): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO support_reads (thread_id, member_id, last_read_seq, last_read_at)
    SELECT ${threadId}::uuid, ${memberId}::uuid, coalesce(max(seq), 0), ${at}::timestamptz
      FROM support_messages WHERE thread_id = ${threadId}::uuid
    ON CONFLICT (thread_id, member_id) DO UPDATE
      SET last_read_seq = greatest(support_reads.last_read_seq, excluded.last_read_seq), last_read_at = excluded.last_read_at`;
}

/** When the last successful exchange with the control plane happened (null: never). */
export async function findSyncedAt(tx: Reads = db()): Promise<Date | null> {
  const link = await tx.supportLink.findUnique({ where: { id: 'instance' }, select: { syncedAt: true } });
  return link?.syncedAt ?? null;
}
