/**
 * The client address behind a trusted proxy, end to end: a real node:http server stamping requests
 * as the web server does (TRUST_PROXY=1), in front of the REST handler.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../core/config';
import { db } from '../core/db';
import { createMember, testPassword, type TestMember } from '../testing/factories';
import { startBridgeServer, type BridgeServer } from '../testing/bridge-server';
import { useTestDatabase } from '../testing/test-database';
import { handleRestRequest } from './rest-handler';

await useTestDatabase();

let server: BridgeServer;
let base: string;
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
  server = await startBridgeServer(handleRestRequest, { trustProxy: true }); // TRUST_PROXY=1: one proxy in front of us
  base = server.base;
});

afterAll(() => server.close());

function login(forwardedFor: string, password: string, headers: Record<string, string> = {}) {
  return fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor, ...headers },
    body: JSON.stringify({ email: member.email, password }),
  });
}

describe('hardening 6: X-Forwarded-For is read from the trusted (right) end', () => {
  it('a client cannot escape the sign-in limit by writing a new address per request', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      // The client writes the left part; the proxy appends the address it saw.
      expect((await login(`192.0.2.${attempt + 1}, 203.0.113.10`, 'wrong-password')).status).toBe(401);
    }
    const refused = await login('192.0.2.200, 203.0.113.10', testPassword);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('auth.too_many_attempts');
  });

  it('counts IPv6 clients per /64: a fresh address of the same network is the same client', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await login(`2001:db8:77:1::${attempt + 1}`, 'wrong-password')).status).toBe(401);
    }
    expect((await login('2001:db8:77:1:ffff::1', testPassword)).status).toBe(429);
    expect((await login('2001:db8:77:2::1', testPassword)).status).toBe(200);
  });

  it('audits the address the proxy saw, not the one the client wrote', async () => {
    const response = await fetch(`${base}/api/v1/me/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: member.cookie, 'x-forwarded-for': '6.6.6.6, 203.0.113.50' },
      body: JSON.stringify({ currentPassword: testPassword, newPassword: testPassword }),
    });
    expect(response.status).toBe(200);
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'member.password_changed', targetId: member.id } });
    expect(entry.ip).toBe('203.0.113.50');
  });

  describe('in production', () => {
    const original = process.env.NODE_ENV;
    afterEach(() => {
      (process.env as Record<string, string | undefined>).NODE_ENV = original;
      resetConfigForTests();
    });

    it('X-Forwarded-For: 127.0.0.1 with Host: localhost does not pass the loopback exemption of the HTTPS rule', async () => {
      (process.env as Record<string, string | undefined>).NODE_ENV = 'production';
      resetConfigForTests();
      const response = await login('127.0.0.1', testPassword, { host: 'localhost:3000' });
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe('auth.https_required');
    });
  });
});
