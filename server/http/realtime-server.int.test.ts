import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { db } from '../core/db';
import { createApiKeyFor, createMember, testPassword, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
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

/** Connects over WebSocket with the given session cookie (and headers) to one realtime server. */
async function connected(url: string, cookie: string, headers: Record<string, string> = {}): Promise<Socket> {
  const socket = connect(url, { path: '/api/v1/ws', transports: ['websocket'], extraHeaders: { cookie, ...headers }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => resolve());
    socket.on('connect_error', reject);
  });
  return socket;
}

function disconnection(socket: Socket): Promise<string> {
  return new Promise((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
}

/** A socket still connected and in its member's room receives what is sent there. */
async function stillReachable(server: RealtimeServer, memberId: string, socket: Socket): Promise<boolean> {
  const received = new Promise<boolean>((resolve) => socket.once('still-there', () => resolve(true)));
  server.io.to(`member:${memberId}`).emit('still-there');
  return received;
}

async function login(memberEmail: string): Promise<string> {
  const response = await call('POST', '/api/v1/auth/login', { body: { email: memberEmail, password: testPassword }, ip: '10.11.0.1' });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0];
}

describe('hardening 11: ending a session closes its sockets on every instance, and the handshake checks the origin', () => {
  let second: { realtime: RealtimeServer; server: Server; base: string };
  let admin: TestMember;

  beforeAll(async () => {
    admin = await createMember({ role: 'admin' });
    const realtime2 = createRealtimeServer(databaseUrl);
    const server2 = createServer((req, res) => void realtime2.handleRequest(req, res));
    server2.on('upgrade', (req, socket, head) => void realtime2.handleUpgrade(req, socket, head));
    await new Promise<void>((resolve) => server2.listen(0, '127.0.0.1', resolve));
    second = { realtime: realtime2, server: server2, base: `http://127.0.0.1:${(server2.address() as AddressInfo).port}` };
    // Both instances' postgres adapters must be listening before anything is published.
    await vi.waitFor(
      async () => {
        const rows = await db().$queryRaw<{ count: bigint }[]>`
          SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN "socket.io#/"%'`;
        expect(Number(rows[0].count)).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 50 },
    );
  });

  afterAll(async () => {
    await second.realtime.close();
    await new Promise((resolve) => second.server.close(resolve));
  });

  it('sign-out closes that session’s sockets, not the member’s other sessions', async () => {
    const someone = await createMember();
    const otherCookie = await login(someone.email);
    const signingOut = await connected(base, someone.cookie);
    const staying = await connected(second.base, otherCookie);
    const closed = disconnection(signingOut);
    expect((await call('POST', '/api/v1/auth/logout', { cookie: someone.cookie })).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(await stillReachable(second.realtime, someone.id, staying)).toBe(true);
    staying.close();
  });

  it('a password change closes the other sessions’ sockets, on every instance, and keeps the changer’s', async () => {
    const changer = await createMember();
    const otherCookie = await login(changer.email);
    const own = await connected(base, changer.cookie);
    const otherHere = await connected(base, otherCookie);
    const otherThere = await connected(second.base, otherCookie);
    const closed = [disconnection(otherHere), disconnection(otherThere)];
    const response = await call('POST', '/api/v1/me/password', {
      cookie: changer.cookie,
      body: { currentPassword: testPassword, newPassword: 'a-brand-new-password' },
    });
    expect(response.status).toBe(200);
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
    expect(await stillReachable(realtime, changer.id, own)).toBe(true);
    own.close();
  });

  it('deactivation closes every socket of the member, on every instance', async () => {
    const leaver = await createMember();
    const otherCookie = await login(leaver.email);
    const sockets = [await connected(base, leaver.cookie), await connected(second.base, otherCookie)];
    const closed = sockets.map(disconnection);
    expect((await call('POST', `/api/v1/admin/members/${leaver.id}/deactivate`, { cookie: admin.cookie })).status).toBe(200);
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('a revoked session cannot connect again', async () => {
    const someone = await createMember();
    await call('POST', '/api/v1/auth/logout', { cookie: someone.cookie });
    const socket = connect(base, { path: '/api/v1/ws', transports: ['websocket'], extraHeaders: { cookie: someone.cookie }, reconnection: false });
    await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    socket.close();
  });

  it.each([
    ['another origin', { origin: 'http://attacker.example' }],
    ['a sibling port on localhost', { origin: 'http://127.0.0.1:1' }],
    ['Origin: null', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses a handshake from %s with 403 auth.cross_origin (polling and upgrade)', async (_name, headers) => {
    const polling = await handshake({ cookie: member.cookie, ...headers });
    expect(polling.status).toBe(403);
    expect((await polling.json()).error.code).toBe('auth.cross_origin');
    const socket = connect(base, { path: '/api/v1/ws', transports: ['websocket'], extraHeaders: { cookie: member.cookie, ...headers }, reconnection: false });
    await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    socket.close();
  });

  it('admits a handshake from the application’s own origin', async () => {
    const socket = await connected(base, member.cookie, { origin: base, 'sec-fetch-site': 'same-origin' });
    expect(socket.connected).toBe(true);
    socket.close();
  });
});
