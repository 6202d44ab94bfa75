/**
 * Closes real-time sockets from any process (web or runner), wherever they are connected: the
 * command is a PostgreSQL notification on the channel every web instance's socket.io postgres
 * adapter listens to, in the adapter's own cluster message format (typed by socket.io-adapter).
 *
 * Written here rather than through @socket.io/postgres-emitter: its latest release (0.1.1) leaves out
 * the namespace the adapter (0.5) routes by, so adapters drop its messages, and it answers a failed
 * publish by publishing again.
 *
 * The notification is sent on the caller's transaction (or on its own when none), and PostgreSQL
 * delivers notifications only when that transaction commits: a revocation that rolls back closes
 * nothing, and one that commits cannot lose its disconnect between commit and publish.
 */
import { MessageType, type ClusterMessage } from 'socket.io-adapter';
import { db, type Tx } from '../db';
import { memberRoom, sessionRoom } from './rooms';

/** The adapter's default channel prefix; server/http/realtime-server.ts passes it explicitly. */
export const realtimeChannelPrefix = 'socket.io';
/** The namespace the adapter routes by, and its PostgreSQL channel (shared with ./emit.ts). */
export const namespace = '/';
export const channel = `${realtimeChannelPrefix}#${namespace}`;
/** socket.io's id for senders that are not servers: adapters do not count them as cluster nodes. */
export const senderId = 'emitter';

type Runner = Pick<Tx, '$executeRaw'>;

async function disconnect(rooms: string[], except: string[], runner: Runner): Promise<void> {
  // An empty room list would address every socket of every instance.
  if (rooms.length === 0) return;
  const message: ClusterMessage = {
    uid: senderId,
    nsp: namespace,
    type: MessageType.DISCONNECT_SOCKETS,
    data: { opts: { rooms, except, flags: {} }, close: true },
  };
  await runner.$executeRaw`SELECT pg_notify(${channel}, ${JSON.stringify(message)})`;
}

/** Closes the sockets opened with one session (sign-out). */
export function disconnectSessionSockets(sessionId: string, tx: Runner = db()): Promise<void> {
  return disconnect([sessionRoom(sessionId)], [], tx);
}

/** Closes every socket of a member (deactivation), or all but those of one session (password change). */
export function disconnectMemberSockets(memberId: string, options: { exceptSession?: string } = {}, tx: Runner = db()): Promise<void> {
  return disconnect([memberRoom(memberId)], options.exceptSession ? [sessionRoom(options.exceptSession)] : [], tx);
}
