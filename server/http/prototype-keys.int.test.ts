/**
 * Names that live on Object.prototype, sent as query keys and as JSON body keys: a route either
 * ignores them or answers 400, never 500 (trpc-to-openapi's query reader used to throw on them).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyFor, createMember, testPassword, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';
import { clientIpHeader } from '../core/http/client-headers';
import { prototypeNames } from '../testing/prototype-names';
import { handleTrpcRequest } from './trpc-handler';

await useTestDatabase();

let admin: TestMember;
let key: string;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  key = (await createApiKeyFor(admin, ['tables:read'])).secret;
});

function expectIgnoredOr400(response: { status: number; body: any }, label: string) {
  expect([200, 201, 400], label).toContain(response.status);
  if (response.status === 400) expect(response.body.error.code, label).toBe('request.bad_request');
}

describe('hardening 2: prototype names as query or body keys are ignored or 400, never 500', () => {
  it.each(prototypeNames)('query key %s on a public route (GET /api/v1/branding)', async (name) => {
    const response = await call('GET', `/api/v1/branding?${name}=x`);
    expectIgnoredOr400(response, name);
    const repeated = await call('GET', `/api/v1/branding?${name}=x&${name}=y&${name}[a]=z`);
    expectIgnoredOr400(repeated, `${name} repeated`);
  });

  it.each(prototypeNames)('query key %s on an authenticated route (GET /api/v1/tables), cookie and key', async (name) => {
    expectIgnoredOr400(await call('GET', `/api/v1/tables?${name}=x`, { cookie: admin.cookie }), `${name} cookie`);
    expectIgnoredOr400(await call('GET', `/api/v1/tables?${name}=x&${name}=y`, { key }), `${name} key`);
  });

  it.each(prototypeNames)('query key %s beside a route’s own parameters keeps them (GET /api/v1/admin/audit)', async (name) => {
    const response = await call('GET', `/api/v1/admin/audit?${name}=x&limit=1`, { cookie: admin.cookie });
    expectIgnoredOr400(response, name);
  });

  it.each(prototypeNames.map((name, index) => [name, index] as const))('body key %s on a public route (POST /api/v1/auth/login)', async (name, index) => {
    const rawBody = `{"${name}": {"polluted": true}, "email": "${admin.email}", "password": "${testPassword}"}`;
    // One client address per name: the sign-in limit (10 attempts per address) is not what this tests.
    const response = await call('POST', '/api/v1/auth/login', { rawBody, headers: { 'content-type': 'application/json' }, ip: `198.51.100.${index + 1}` });
    expectIgnoredOr400(response, name);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(prototypeNames)('body key %s on an authenticated route (POST /api/v1/tables)', async (name) => {
    const rawBody = `{"${name}": "x", "name": "Proto ${name}"}`;
    const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, rawBody, headers: { 'content-type': 'application/json' } });
    expectIgnoredOr400(response, name);
    const nested = `{"name": "Nested ${name}", "columns": [{"${name}": "x", "label": "A", "type": "text"}]}`;
    expectIgnoredOr400(
      await call('POST', '/api/v1/tables', { cookie: admin.cookie, rawBody: nested, headers: { 'content-type': 'application/json' } }),
      `${name} nested`,
    );
  });

  it.each(prototypeNames)('tRPC: %s as a query key, and as a key of the input, of a query and of a mutation', async (name) => {
    const headers = { host: 'localhost', [clientIpHeader]: '127.0.0.1', cookie: admin.cookie };
    const input = encodeURIComponent(JSON.stringify({ [name]: 'x' }));
    for (const url of [`instance.branding?${name}=x`, `tables.list?input=${input}`, `tables.list,instance.branding?batch=1&input=${encodeURIComponent(`{"${name}":{"0":1},"0":{}}`)}`]) {
      const response = await handleTrpcRequest(new Request(`http://localhost/api/trpc/${url}`, { headers }));
      expect(response.status, `${name} ${url}`).toBeLessThan(500);
    }
    const mutation = await handleTrpcRequest(
      new Request('http://localhost/api/trpc/tables.create', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: `{"${name}": {"polluted": true}, "name": "tRPC ${name}"}`,
      }),
    );
    expect([200, 400], name).toContain(mutation.status);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
