import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyFor, createMember, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';

await useTestDatabase();

let member: TestMember;
beforeAll(async () => {
  member = await createMember();
});

describe('API key rate limit: 600 requests per sliding minute per key', () => {
  it('answers the 601st request 429 api_key.rate_limited with Retry-After, counted before the scope check', async () => {
    const { secret } = await createApiKeyFor(member, ['contacts:read']);
    // An admin route the key has no scope for: each of the 600 is refused with 403, yet counted.
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 20; batch += 1) {
      const responses = await Promise.all(Array.from({ length: 30 }, () => call('GET', '/api/v1/admin/audit', { key: secret })));
      for (const response of responses) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 403: 600 });
    const limited = await call('GET', '/api/v1/auth/me', { key: secret });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('api_key.rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.error.details.retryAfterSeconds).toBe(retryAfter);
  });

  it('counts per key, not per member', async () => {
    const first = await createApiKeyFor(member, ['contacts:read']);
    const second = await createApiKeyFor(member, ['contacts:read']);
    for (let batch = 0; batch < 20; batch += 1) {
      await Promise.all(Array.from({ length: 30 }, () => call('GET', '/api/v1/auth/me', { key: first.secret })));
    }
    expect((await call('GET', '/api/v1/auth/me', { key: first.secret })).status).toBe(429);
    expect((await call('GET', '/api/v1/auth/me', { key: second.secret })).status).toBe(200);
  });

  it('checks key validity before the rate limit: an unknown key is 401', async () => {
    expect((await call('GET', '/api/v1/auth/me', { key: 'mk_nothing' })).status).toBe(401);
  });
});

describe('request handling common to every route', () => {
  it('answers an unknown route 404 request.not_found', async () => {
    const response = await call('GET', '/api/v1/no-such-route', { cookie: member.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('request.not_found');
  });

  it('answers malformed JSON 400, never 500', async () => {
    const response = await call('POST', '/api/v1/api-keys', { cookie: member.cookie, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('answers a body above 5 MB 413 request.payload_too_large', async () => {
    const response = await call('POST', '/api/v1/api-keys', {
      cookie: member.cookie,
      rawBody: JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('request.payload_too_large');
  });

  it('answers a non-JSON body 415', async () => {
    const response = await call('POST', '/api/v1/api-keys', { cookie: member.cookie, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('request.unsupported_media_type');
  });

  it('reads a POST without a body as {}', async () => {
    const { key } = await createApiKeyFor(member, ['tables:read']);
    const response = await call('POST', `/api/v1/api-keys/${key.id}/revoke`, { cookie: member.cookie });
    expect(response.status).toBe(200);
  });

  it('answers a limit above the route maximum 400, never clamped', async () => {
    const admin = await createMember({ role: 'admin' });
    expect((await call('GET', '/api/v1/admin/audit?limit=200', { cookie: admin.cookie })).status).toBe(200);
    const response = await call('GET', '/api/v1/admin/audit?limit=201', { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});
