/**
 * The real-time channel `/api/v1/ws` (socket.io), on the web server's origin and port.
 *
 * Every handshake request (each polling request and the WebSocket upgrade) is admitted before
 * socket.io sees it, so refusals carry the catalogue's status and envelope: another site's page
 * 403 `auth.cross_origin` (a browser sends `Origin` on WebSocket upgrades, and SameSite=Lax does not
 * stop a sibling subdomain or another app on localhost from opening one with the member's cookie),
 * no credential 401 `auth.unauthenticated`, an API key 403 `api_key.session_required`. socket.io is
 * attached to a private http.Server that never listens; the public server hands it the requests it
 * has admitted. Instances share rooms and broadcasts through PostgreSQL (socket.io's postgres
 * adapter), so no Redis is needed.
 *
 * Each socket joins its member's room and its session's room (core/realtime/rooms.ts): ending a
 * session (sign-out, password change, deactivation) closes the matching sockets on every instance.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import { Server } from 'socket.io';
import { isSessionLive, resolveActor } from '../core/auth/authenticate';
import type { Actor } from '../core/auth/access';
import { config } from '../core/config';
import { AppError, toAppError } from '../core/errors/app-error';
import { assertSameOrigin } from '../core/http/cross-origin';
import { log } from '../core/log';
import { realtimeChannelPrefix } from '../core/realtime/disconnect';
import { memberRoom, sessionRoom } from '../core/realtime/rooms';
import { headersOf } from './node-bridge';

export const realtimePath = '/api/v1/ws';

export function isRealtimeRequest(url: string | undefined): boolean {
  return Boolean(url && (url === realtimePath || url.startsWith(`${realtimePath}/`) || url.startsWith(`${realtimePath}?`)));
}

type SessionActor = Extract<Actor, { kind: 'session' }>;

/** The member session behind a handshake from our own origin, or the AppError to answer. */
async function admit(req: IncomingMessage): Promise<{ actor: SessionActor } | { error: AppError }> {
  try {
    const headers = headersOf(req);
    assertSameOrigin(headers, config().PUBLIC_URL);
    const actor = await resolveActor(headers);
    if (actor.kind === 'apiKey') return { error: new AppError('api_key.session_required') };
    if (actor.kind !== 'session') return { error: new AppError('auth.unauthenticated') };
    return { actor };
  } catch (error) {
    return { error: toAppError(error) };
  }
}

export interface RealtimeServer {
  io: Server;
  handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void>;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  close(): Promise<void>;
}

const poolEndWaitMs = 1_000;

export function createRealtimeServer(databaseUrl: string): RealtimeServer {
  const inner = createServer();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const io = new Server(inner, { path: realtimePath, serveClient: false, adapter: createAdapter(pool, { channelPrefix: realtimeChannelPrefix, errorHandler: (err) => log.warn({ err }, 'realtime adapter') }) });
  const members = new WeakMap<IncomingMessage, SessionActor>();

  io.use((socket, next) => {
    const actor = members.get(socket.request);
    if (!actor) return next(new Error('auth.unauthenticated'));
    socket.data.memberId = actor.member.id;
    socket.data.sessionId = actor.sessionId;
    void socket.join([memberRoom(actor.member.id), sessionRoom(actor.sessionId)]);
    // A revocation that committed after the handshake's check but before the join above missed this
    // socket: ask once more now that any later one will reach it through its rooms.
    isSessionLive(actor.sessionId).then(
      (live) => next(live ? undefined : new Error('auth.unauthenticated')),
      (err: unknown) => {
        log.warn({ err }, 'realtime session check failed');
        next(new Error('auth.unauthenticated'));
      },
    );
  });

  return {
    io,
    async handleRequest(req, res) {
      const admitted = await admit(req);
      if ('error' in admitted) {
        res.writeHead(admitted.error.status, { 'content-type': 'application/json', ...admitted.error.headers });
        res.end(JSON.stringify(admitted.error.toBody()));
        return;
      }
      members.set(req, admitted.actor);
      inner.emit('request', req, res);
    },
    async handleUpgrade(req, socket, head) {
      const admitted = await admit(req);
      if ('error' in admitted) {
        const body = JSON.stringify(admitted.error.toBody());
        socket.end(
          `HTTP/1.1 ${admitted.error.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
        return;
      }
      members.set(req, admitted.actor);
      inner.emit('upgrade', req, socket, head);
    },
    async close() {
      await io.close();
      // The adapter's listening connection is not always given back to its pool (a LISTEN client it is still
      // setting up): ending the pool would wait for it for ever, and a stopping process would hang until its
      // forced exit. Bounded: what is left is closed with the process.
      const ended = await Promise.race([pool.end().then(() => true), sleep(poolEndWaitMs).then(() => false)]);
      if (!ended) log.warn({ checkedOut: pool.totalCount - pool.idleCount }, 'realtime: the adapter kept connections; not waiting for them');
    },
  };
}
