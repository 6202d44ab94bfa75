/**
 * The real-time channel `/api/v1/ws` (socket.io), on the web server's origin and port.
 *
 * Authentication happens before socket.io sees the request, so refusals carry the catalogue's
 * status and envelope: no credential 401 `auth.unauthenticated`, an API key 403
 * `api_key.session_required`. socket.io is attached to a private http.Server that never listens;
 * the public server hands it the requests it has admitted. Instances share rooms and broadcasts
 * through PostgreSQL (socket.io's postgres adapter), so no Redis is needed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import { Server } from 'socket.io';
import { resolveActor } from '../core/auth/authenticate';
import type { Actor } from '../core/auth/access';
import { AppError, toAppError } from '../core/errors/app-error';
import { log } from '../core/log';

export const realtimePath = '/api/v1/ws';

export function isRealtimeRequest(url: string | undefined): boolean {
  return Boolean(url && (url === realtimePath || url.startsWith(`${realtimePath}/`) || url.startsWith(`${realtimePath}?`)));
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** The member session behind a handshake, or the AppError to answer. */
async function admit(req: IncomingMessage): Promise<{ actor: Actor } | { error: AppError }> {
  try {
    const actor = await resolveActor(headersOf(req));
    if (actor.kind === 'anonymous') return { error: new AppError('auth.unauthenticated') };
    if (actor.kind === 'apiKey') return { error: new AppError('api_key.session_required') };
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

export function createRealtimeServer(databaseUrl: string): RealtimeServer {
  const inner = createServer();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const io = new Server(inner, { path: realtimePath, serveClient: false, adapter: createAdapter(pool, { errorHandler: (err) => log.warn({ err }, 'realtime adapter') }) });
  const members = new WeakMap<IncomingMessage, Actor>();

  io.use((socket, next) => {
    const actor = members.get(socket.request);
    if (!actor || actor.kind === 'anonymous') return next(new Error('auth.unauthenticated'));
    socket.data.memberId = actor.member.id;
    void socket.join(`member:${actor.member.id}`);
    next();
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
      await pool.end();
    },
  };
}
