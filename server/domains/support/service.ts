/**
 * Support threads with the team operating the instance, as members use them (spec, Endpoints → Support
 * requests to the team; member sessions only). A write is stored here first and answered at once with
 * `pending: true`; the runner's sync (`./sync/`) delivers it to the operator's control plane, queued in
 * the write's transaction. An instance with no control plane (`config().controlPlane` null) answers
 * reads from what it holds and every write 409 `support.not_linked`.
 */
import { randomUUID } from 'node:crypto';
import type { AuthenticatedActor } from '../../core/auth/access';
import { config } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { emitToMember } from '../../core/realtime/emit';
import { announceThreads } from './announce';
import { presentThread, presentThreadSummary } from './present';
import {
  appendMemberMessage,
  countUnreadOf,
  findSyncedAt,
  findThreadsOf,
  findVisibleThread,
  insertThreadWithFirstMessage,
  lockVisibleThread,
  markThreadReadBy,
  type Reader,
} from './repo';
import {
  supportBounds,
  type CreateConversationInput,
  type CreateRequestInput,
  type PostMessageInput,
  type SupportOverviewOutput,
  type ThreadOutput,
} from './schemas';

function readerOf(actor: AuthenticatedActor): Reader {
  return { memberId: actor.member.id, admin: actor.member.role === 'admin' };
}

export function isLinked(): boolean {
  return config().controlPlane !== null;
}

function requireLinked(): void {
  if (!isLinked()) throw appError('support.not_linked');
}

async function visibleThreadOrThrow(reader: Reader, id: string, tx?: Tx): Promise<ThreadOutput> {
  const row = await findVisibleThread(reader, id, tx);
  if (!row) throw appError('support.not_found');
  return presentThread(row);
}

/** `GET /api/v1/support`: the reader's latest 200 threads (an administrator: the organisation's), most recently active first. */
export async function supportOverview(actor: AuthenticatedActor): Promise<SupportOverviewOutput> {
  const reader = readerOf(actor);
  const [rows, unreadCount, syncedAt] = await Promise.all([findThreadsOf(reader, supportBounds.listMax), countUnreadOf(reader), findSyncedAt()]);
  return { linked: isLinked(), threads: rows.map(presentThreadSummary), unreadCount, syncedAt: iso(syncedAt) };
}

export function getThread(actor: AuthenticatedActor, id: string): Promise<ThreadOutput> {
  return visibleThreadOrThrow(readerOf(actor), id);
}

/** Marks the thread read for the reader alone (an administrator reading a member's thread leaves the author's mark). */
export async function readThread(actor: AuthenticatedActor, id: string): Promise<ThreadOutput> {
  const reader = readerOf(actor);
  return db().$transaction(async (tx) => {
    const thread = await visibleThreadOrThrow(reader, id, tx);
    await markThreadReadBy(tx, thread.id, reader.memberId, new Date());
    // The reader's other tabs and unread badge follow; nobody else's state changed.
    await emitToMember(reader.memberId, 'support.thread', { threadId: thread.id }, tx);
    return visibleThreadOrThrow(reader, thread.id, tx);
  });
}

async function openThread(actor: AuthenticatedActor, kind: 'request' | 'conversation', subject: string, body: string): Promise<ThreadOutput> {
  requireLinked();
  const reader = readerOf(actor);
  const author = { memberId: actor.member.id, name: actor.member.name };
  const id = randomUUID();
  return db().$transaction(async (tx) => {
    const status = kind === 'request' ? 'received' : 'open';
    await insertThreadWithFirstMessage(tx, { id, kind, subject, status, author, firstMessage: { id: randomUUID(), body }, at: new Date() });
    await queueDelivery(tx);
    await announceThreads(tx, [{ id, authorMemberId: author.memberId }]);
    return visibleThreadOrThrow(reader, id, tx);
  });
}

/** `POST /api/v1/support/requests`: a request (title, need), status `received`; the need is its first message. */
export function openRequest(actor: AuthenticatedActor, input: CreateRequestInput): Promise<ThreadOutput> {
  return openThread(actor, 'request', input.title, input.need);
}

/** `POST /api/v1/support/threads`: a conversation (subject, first message), status `open`. */
export function openConversation(actor: AuthenticatedActor, input: CreateConversationInput): Promise<ThreadOutput> {
  return openThread(actor, 'conversation', input.subject, input.body);
}

/** `POST /api/v1/support/threads/{id}/messages`: a member's message in a thread they see, whatever its status. */
export async function postMessage(actor: AuthenticatedActor, input: PostMessageInput): Promise<ThreadOutput> {
  requireLinked();
  const reader = readerOf(actor);
  return db().$transaction(async (tx) => {
    const threadId = await lockVisibleThread(tx, reader, input.id);
    if (!threadId) throw appError('support.not_found');
    await appendMemberMessage(tx, threadId, { id: randomUUID(), body: input.body, author: { memberId: actor.member.id, name: actor.member.name }, at: new Date() });
    await queueDelivery(tx);
    const thread = await visibleThreadOrThrow(reader, threadId, tx);
    await announceThreads(tx, [{ id: threadId, authorMemberId: thread.authorMemberId }]);
    return thread;
  });
}

/** The runner exchanges with the control plane at once after a write; a burst of writes makes one job. */
function queueDelivery(tx: Tx): Promise<void> {
  return enqueue('support.sync', {}, { jobKey: jobKeys.supportSync(), jobKeyMode: 'replace' }, tx);
}
