import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { createApiKeyFor, createMember, type TestMember } from '../testing/factories';
import { useTestDatabase } from '../testing/test-database';
import { createRealtimeServer, isRealtimeRequest, type RealtimeServer } from './realtime-server';

const databaseUrl = await useTestDatabase();

let server: Server;
let realtime: RealtimeServer;
let base: string;
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
  realtime = createRealtimeServer(databaseUrl);
  server = createServer((req, res) => {
    if (isRealtimeRequest(req.url)) void realtime.handleRequest(req, res);
    else res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket, head) => void realtime.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await realtime.close();
  await new Promise((resolve) => server.close(resolve));
});

const handshake = (headers: Record<string, string> = {}) => fetch(`${base}/api/v1/ws/?EIO=4&transport=polling`, { headers });

describe('WebSocket /api/v1/ws', () => {
  it('answers 401 auth.unauthenticated without a credential', async () => {
    const response = await handshake();
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('auth.unauthenticated');
  });

  it('answers an API key 403 api_key.session_required', async () => {
    const { secret } = await createApiKeyFor(member, ['admin:write']);
    const response = await handshake({ authorization: `Bearer ${secret}` });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('api_key.session_required');
  });

  it('refuses a WebSocket upgrade without a session', async () => {
    const socket = connect(base, { path: '/api/v1/ws', transports: ['websocket'], reconnection: false });
    const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    socket.close();
    expect(error).toBeInstanceOf(Error);
  });

  it('connects a member session and joins the member’s room', async () => {
    const socket = connect(base, { path: '/api/v1/ws', transports: ['websocket'], extraHeaders: { cookie: member.cookie }, reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });
    const received = new Promise((resolve) => socket.on('hello', resolve));
    realtime.io.to(`member:${member.id}`).emit('hello', { ok: true });
    expect(await received).toEqual({ ok: true });
    socket.close();
  });
});
