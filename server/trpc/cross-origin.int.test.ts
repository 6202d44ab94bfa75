/**
 * hardening 10: a cookie-authenticated (or credential-less) state-changing request from another
 * origin is refused with 403 auth.cross_origin on REST and tRPC; programs without Origin or
 * Sec-Fetch-Site and Bearer requests are unaffected. (Plain routes: server/http/plain/plain-routes.int.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../core/db';
import { clientIpHeader } from '../core/http/client-headers';
import { handleTrpcRequest } from '../http/trpc-handler';
import { createApiKeyFor, createMember, testPassword, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let adminKey: string;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  adminKey = (await createApiKeyFor(admin, ['tables:write'])).secret;
});

const foreign = [
  ['Origin of another site', { origin: 'http://attacker.example' }],
  ['Origin of another app on the same host', { origin: 'http://localhost:4000' }],
  ['Origin: null', { origin: 'null' }],
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site', origin: 'http://sub.localhost' }],
] as const;

async function tableCount(): Promise<number> {
  return db().dataTable.count();
}

describe('hardening 10: cross-origin state-changing requests are refused on REST', () => {
  it.each(foreign)('POST /api/v1/tables with the admin’s cookie and %s → 403 auth.cross_origin, nothing created', async (_name, headers) => {
    const before = await tableCount();
    const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, headers: { ...headers }, body: { name: 'CSRF' } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('auth.cross_origin');
    expect(await tableCount()).toBe(before);
  });

  it.each(foreign)('sign-in posted from another site (%s) is refused: no login CSRF', async (_name, headers) => {
    const response = await call('POST', '/api/v1/auth/login', { headers: { ...headers }, body: { email: admin.email, password: testPassword } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('auth.cross_origin');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('accepts the application’s own pages (same Origin, Sec-Fetch-Site: same-origin)', async () => {
    const response = await call('POST', '/api/v1/tables', {
      cookie: admin.cookie,
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      body: { name: 'Own page' },
    });
    expect(response.status).toBe(201);
  });

  it('accepts a program using a cookie without Origin or Sec-Fetch-Site', async () => {
    expect((await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: 'Program' } })).status).toBe(201);
  });

  it('leaves Bearer requests alone, whatever their Origin', async () => {
    const response = await call('POST', '/api/v1/tables', { key: adminKey, headers: { origin: 'http://attacker.example' }, body: { name: 'Keyed' } });
    expect(response.status).toBe(201);
  });

  it('leaves reads alone: GET with a foreign Origin is served', async () => {
    const response = await call('GET', '/api/v1/tables', { cookie: admin.cookie, headers: { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(200);
  });

  it('refuses an empty cross-site form post to a route without body', async () => {
    const response = await call('POST', '/api/v1/auth/logout', { cookie: admin.cookie, headers: { origin: 'http://attacker.example' } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('auth.cross_origin');
  });
});

function trpc(path: string, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  return handleTrpcRequest(
    new Request(`http://localhost/api/trpc/${path}`, {
      method: init.method ?? 'POST',
      headers: { host: 'localhost', [clientIpHeader]: '127.0.0.1', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body,
    }),
  );
}

describe('hardening 10: cross-origin state-changing requests are refused on tRPC', () => {
  it.each(foreign)('tables.create with the cookie and %s → 403 auth.cross_origin in tRPC’s shape', async (_name, headers) => {
    const before = await tableCount();
    const response = await trpc('tables.create', { headers: { cookie: admin.cookie, ...headers }, body: JSON.stringify({ name: 'CSRF' }) });
    expect(response.status).toBe(403);
    const { error } = await response.json();
    expect(error.data.appError.code).toBe('auth.cross_origin');
    expect(await tableCount()).toBe(before);
  });

  it('auth.login from another site → 403', async () => {
    const response = await trpc('auth.login', {
      headers: { origin: 'http://attacker.example' },
      body: JSON.stringify({ email: admin.email, password: testPassword }),
    });
    expect(response.status).toBe(403);
  });

  it('a cross-site HTML form (multipart) to a mutation is refused', async () => {
    const response = await trpc('auth.logout', {
      headers: { cookie: admin.cookie, origin: 'http://attacker.example', 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect([403, 415]).toContain(response.status);
  });

  it('the UI’s own calls work: same-origin mutation, and queries whatever their origin', async () => {
    const own = await trpc('tables.create', {
      headers: { cookie: admin.cookie, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'From the UI' }),
    });
    expect(own.status).toBe(200);
    const query = await trpc('tables.list', { method: 'GET', headers: { cookie: admin.cookie, 'sec-fetch-site': 'cross-site' } });
    expect(query.status).toBe(200);
  });
});
