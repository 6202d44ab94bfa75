/**
 * Live updates from any process (web or runner) to a member's browsers: an event broadcast to the
 * member's room through the socket.io postgres adapter's channel, in its cluster message format (see
 * ./disconnect.ts for why not @socket.io/postgres-emitter). Sent on the caller's transaction when one
 * is given, so a rolled-back change announces nothing.
 *
 * Payloads are small (ids, counts, statuses): PostgreSQL notifications are limited to 8,000 bytes and
 * the browser re-reads what changed through the API.
 */
import { MessageType, type ClusterMessage } from 'socket.io-adapter';
import { db, type Tx } from '../db';
import { channel, namespace, senderId } from './disconnect';
import { memberRoom } from './rooms';

/** socket.io-parser's EVENT packet type. */
const eventPacket = 2;
const maxPayloadBytes = 7_000;

/** Event names the UI listens to, with their payloads. */
export interface RealtimeEvents {
  'mail.changed': { mailboxId: string; threadIds?: string[]; reason: 'new' | 'flags' | 'moved' | 'expunged' | 'resync' | 'bodies' };
  'mailbox.status': { mailboxId: string; status: string; backfill?: unknown; lastDeltaAt?: string | null };
  'notification.created': { id: string; kind: string; unreadCount?: number };
  /** The member's unread count changed (read, read-all, archive), for the bell. */
  'notification.unread': { unreadCount: number };
  /** An execution changed status (started, waiting, finished). */
  'execution.status': { executionId: string; workflowId: string; status: string };
  /** A step of an execution changed status. */
  'execution.step': { executionId: string; nodeId: string; status: string };
  /** A send hold of the blast-radius guard opened or was released. */
  'sending.hold': { holdId: string; status: 'open' | 'released' };
  /** An approval was asked for or changed status (decided, expired, cancelled). */
  'approval.changed': { approvalId: string; executionId: string; status: string };
  /** An outbound message (review item) changed: review decision, send progress. */
  'outbound.changed': { outboundId: string; mailboxId: string; reviewStatus?: string; sendStatus?: string };
  /** An evaluation run progressed (cases done) or changed status. */
  'eval.progress': { evalRunId: string; workflowId: string; status: string; done: number; total: number };
  /** A mailbox analysis moved on (phase, model batches done) or changed status. */
  'analyzer.progress': { analysisId: string; mailboxId: string; status: string; phase: string | null; batchesDone: number; batches: number };
  /** Text the assistant streamed for a message: `delta` appended at character `offset` of its content. */
  'assistant.delta': { conversationId: string; messageId: string; offset: number; delta: string };
  /** A conversation changed: a turn started or ended (status), a proposal was made or decided. */
  'assistant.changed': { conversationId: string; status: string; messageId?: string; proposalId?: string };
  /** A support thread changed (a message, delivered, a status or assignee, read): the UI re-reads it and the list. */
  'support.thread': { threadId: string };
}

export async function emitToMember<Event extends keyof RealtimeEvents>(
  memberId: string,
  event: Event,
  payload: RealtimeEvents[Event],
  tx: Pick<Tx, '$executeRaw'> = db(),
): Promise<void> {
  const { channel: name, body } = realtimeNotification(memberId, event, payload);
  await tx.$executeRaw`SELECT pg_notify(${name}, ${body})`;
}

/**
 * The notification `emitToMember` sends, for a caller that sends it inside a statement of its own
 * (`SELECT pg_notify(channel, body)` in the same statement as the change, one round trip).
 */
export function realtimeNotification<Event extends keyof RealtimeEvents>(memberId: string, event: Event, payload: RealtimeEvents[Event]): { channel: string; body: string } {
  const message: ClusterMessage = {
    uid: senderId,
    nsp: namespace,
    type: MessageType.BROADCAST,
    data: {
      opts: { rooms: [memberRoom(memberId)], except: [], flags: {} },
      packet: { type: eventPacket, data: [event, payload], nsp: namespace },
    },
  };
  const text = JSON.stringify(message);
  // Too big to notify: drop the detail, keep the signal (the client re-reads anyway).
  const body = Buffer.byteLength(text) <= maxPayloadBytes ? text : JSON.stringify({ ...message, data: { ...message.data, packet: { type: eventPacket, data: [event, {}], nsp: namespace } } });
  return { channel, body };
}
