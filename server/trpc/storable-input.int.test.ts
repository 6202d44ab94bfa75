/**
 * Input PostgreSQL cannot hold, found by the fuzzed surface: it is refused as a 400 on every
 * transport before any query runs, never answered 500.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';

await useTestDatabase();

let admin: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
});

const unstorable = [
  ['a NUL character', 'Orders\u0000'],
  ['a lone high surrogate', 'Orders\ud800'],
  ['a lone low surrogate', '\udfffOrders'],
] as const;

describe('hardening (fuzzed surface): text PostgreSQL cannot store answers 400, never 500', () => {
  it.each(unstorable)('REST body holding %s', async (_name, text) => {
    const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: text, columns: [{ label: 'Name', type: 'text' }] } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
    expect(response.body.error.details.issues[0]).toMatchObject({ path: 'name', code: 'unstorable_text' });
  });

  it('REST query holding a NUL character', async () => {
    const response = await call('GET', '/api/v1/admin/audit?action=%00', { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('a public route: sign-in with a NUL in the email', async () => {
    const response = await call('POST', '/api/v1/auth/login', { body: { email: 'a\u0000@example.com', password: 'whatever-password' } });
    expect(response.status).toBe(400);
  });

  it('tRPC input holding a lone surrogate', async () => {
    const response = await call('POST', '/api/trpc/apiKeys.create', {
      cookie: admin.cookie,
      rawBody: JSON.stringify({ name: 'key\ud800', scopes: ['tables:read'] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.data.appError.code).toBe('request.bad_request');
  });

  it('a plain route’s path parameter holding a NUL character', async () => {
    const response = await call('GET', '/api/v1/tables/%00/export.csv', { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});

describe('hardening (fuzzed surface): a date-time PostgreSQL cannot store answers 400', () => {
  it('since=0000-01-01T00:00:00Z on the audit log', async () => {
    const response = await call('GET', '/api/v1/admin/audit?since=0000-01-01T00:00:00Z', { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('since=0001-01-01T00:00:00Z is a valid (very old) bound', async () => {
    expect((await call('GET', '/api/v1/admin/audit?since=0001-01-01T00:00:00Z', { cookie: admin.cookie })).status).toBe(200);
  });
});
