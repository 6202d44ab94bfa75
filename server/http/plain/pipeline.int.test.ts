/**
 * The plain routes' generic mechanisms, over a small table of test routes declared with the real
 * `plainRoute()` and served by the real pipeline: routing from the declarations, URL-token access,
 * the per-IP rate limit, the body bound and media types, idempotency, the cross-origin rule, and an
 * unexpected error answered as an opaque 500 and logged.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { appError } from '../../core/errors/app-error';
import { clientIpHeader } from '../../core/http/client-headers';
import { log } from '../../core/log';
import { bufferedTextOf } from '../json-answer';
import { plainOperations } from '../../openapi/plain-paths';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createPlainHandler } from './pipeline';
import { plainRoute } from './plain-route';
import { createPlainRouter } from './plain-router';

await useTestDatabase();

const text = { en: 'test', fr: 'essai' };
let executions = 0;

const hookRoute = plainRoute({
  method: 'POST',
  path: '/hooks/test/{token}',
  access: { kind: 'urlToken' },
  params: z.object({ token: z.string().min(1).max(100) }),
  body: { mediaTypes: ['application/json'], schema: z.record(z.string(), z.unknown()) },
  maxBodyBytes: 256 * 1024,
  rateLimit: { limit: 3, windowSeconds: 60 },
  success: { status: 202, mediaType: 'application/json', description: text },
  tag: 'Test',
  summary: text,
  description: text,
  handle({ params, body }) {
    if (params.token !== 'good-token') throw appError('request.not_found');
    return Response.json({ keys: Object.keys(body).length }, { status: 202 });
  },
});

const thingsRoute = plainRoute({
  method: 'POST',
  path: '/api/v1/test/things',
  access: { kind: 'member' },
  params: z.object({}),
  body: { mediaTypes: ['application/json'], schema: z.object({ value: z.string() }) },
  idempotent: true,
  success: { status: 201, mediaType: 'application/json', description: text },
  tag: 'Test',
  summary: text,
  description: text,
  handle: ({ body }) => Response.json({ n: ++executions, value: body.value }, { status: 201 }),
});

const itemRoute = plainRoute({
  method: 'GET',
  path: '/api/v1/test/items/{id}.txt',
  access: { kind: 'scope', scope: 'tables:read' },
  params: z.object({ id: z.string().max(20) }),
  query: z.object({ limit: z.coerce.number().int().min(1).max(10).default(5) }).strict(),
  success: { status: 200, mediaType: 'application/json', description: text },
  tag: 'Test',
  summary: text,
  description: text,
  handle: ({ params, query }) => Response.json({ id: params.id, limit: query.limit }),
});

const uploadRoute = plainRoute({
  method: 'POST',
  path: '/api/v1/test/upload',
  access: { kind: 'scope', scope: 'tables:write' },
  params: z.object({}),
  body: { mediaTypes: ['multipart/form-data', 'application/octet-stream'] },
  maxBodyBytes: 1024 * 1024,
  success: { status: 200, mediaType: 'application/json', description: text },
  tag: 'Test',
  summary: text,
  description: text,
  handle: ({ body }) => Response.json({ size: body.byteLength }),
});

const boomRoute = plainRoute({
  method: 'GET',
  path: '/api/v1/test/boom',
  access: { kind: 'public' },
  params: z.object({}),
  success: { status: 200, mediaType: 'application/json', description: text },
  tag: 'Test',
  summary: text,
  description: text,
  handle() {
    throw new Error('connection string postgres://admin:hunter2@db failed');
  },
});

const testRoutes = [hookRoute, thingsRoute, itemRoute, uploadRoute, boomRoute];
const handle = createPlainHandler(createPlainRouter(testRoutes));

interface Options {
  method?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  ip?: string;
}

async function send(path: string, options: Options = {}) {
  const headers = new Headers({ host: 'localhost', [clientIpHeader]: options.ip ?? '127.0.0.1', ...options.headers });
  const request = new Request(`http://localhost${path}`, { method: options.method ?? 'GET', headers, body: options.body, duplex: 'half' } as RequestInit);
  const response = await handle(request);
  if (!response) return null;
  const raw = await response.text();
  return { status: response.status, headers: response.headers, body: raw ? JSON.parse(raw) : null };
}

let member: TestMember;
let readKey: string;
let writeKey: string;
beforeAll(async () => {
  member = await createMember();
  readKey = (await createApiKeyFor(member, ['tables:read'])).secret;
  writeKey = (await createApiKeyFor(member, ['tables:write'])).secret;
});

afterEach(() => vi.restoreAllMocks());

describe('plain routes: routing from the declarations', () => {
  it('matches method and path, decodes path segments and validates them against the schema', async () => {
    const found = await send('/api/v1/test/items/a%20b.txt?limit=2', { headers: { authorization: `Bearer ${readKey}` } });
    expect(found).toMatchObject({ status: 200, body: { id: 'a b', limit: 2 } });
    const tooLong = await send(`/api/v1/test/items/${'x'.repeat(21)}.txt`, { headers: { authorization: `Bearer ${readKey}` } });
    expect(tooLong).toMatchObject({ status: 400, body: { error: { code: 'request.bad_request', details: { in: 'path' } } } });
    const badEncoding = await send('/api/v1/test/items/%E0%A4%A.txt', { headers: { authorization: `Bearer ${readKey}` } });
    expect(badEncoding?.status).toBe(400);
  });

  it('leaves other paths to the next handler (null), answers another method 405, HEAD as GET', async () => {
    expect(await send('/api/v1/test/items/1.json')).toBeNull();
    expect(await send('/api/v1/test/thing')).toBeNull();
    expect(await send('/api/v1/test/things')).toMatchObject({ status: 405, body: { error: { code: 'request.method_not_allowed' } } });
    expect((await send('/api/v1/test/items/1.txt', { method: 'HEAD', headers: { authorization: `Bearer ${readKey}` } }))?.status).toBe(200);
  });

  it('answers unknown query parameters of a strict schema 400, prototype names included, and drops __proto__', async () => {
    const headers = { authorization: `Bearer ${readKey}` };
    for (const name of ['constructor', 'toString', 'hasOwnProperty', 'nope']) {
      const response = await send(`/api/v1/test/items/1.txt?${name}=x`, { headers });
      expect(response?.status, name).toBe(400);
    }
    expect((await send('/api/v1/test/items/1.txt?__proto__=x&limit=3', { headers }))?.body).toEqual({ id: '1', limit: 3 });
  });
});

describe('plain routes: access', () => {
  it('authenticates, then authorizes: 401 without credential, 403 for a key without the scope', async () => {
    expect((await send('/api/v1/test/items/1.txt'))?.status).toBe(401);
    const { secret: otherScopeKey } = await createApiKeyFor(member, ['contacts:read']);
    const forbidden = await send('/api/v1/test/items/1.txt', { headers: { authorization: `Bearer ${otherScopeKey}` } });
    expect(forbidden).toMatchObject({ status: 403, body: { error: { code: 'api_key.scope_missing', details: { required: 'tables:read' } } } });
    expect((await send('/api/v1/test/items/1.txt', { headers: { cookie: member.cookie } }))?.status).toBe(200);
  });

  it('urlToken: no credential needed, the handler checks the token, another site may call it', async () => {
    const body = JSON.stringify({ a: 1, b: 2 });
    const ok = await send('/hooks/test/good-token', { method: 'POST', ip: '198.51.100.1', body, headers: { 'content-type': 'application/json', origin: 'http://elsewhere.example' } });
    expect(ok).toMatchObject({ status: 202, body: { keys: 2 } });
    const bad = await send('/hooks/test/bad-token', { method: 'POST', ip: '198.51.100.1', body, headers: { 'content-type': 'application/json' } });
    expect(bad).toMatchObject({ status: 404, body: { error: { code: 'request.not_found' } } });
  });

  it('refuses a cookie-authenticated write from another origin (403 auth.cross_origin), not a Bearer one', async () => {
    const body = JSON.stringify({ value: 'x' });
    const json = { 'content-type': 'application/json' };
    const cookie = await send('/api/v1/test/things', { method: 'POST', body, headers: { ...json, cookie: member.cookie, origin: 'http://attacker.example' } });
    expect(cookie).toMatchObject({ status: 403, body: { error: { code: 'auth.cross_origin' } } });
    const siteHeader = await send('/api/v1/test/things', { method: 'POST', body, headers: { ...json, cookie: member.cookie, 'sec-fetch-site': 'same-site' } });
    expect(siteHeader?.status).toBe(403);
    const keyed = await send('/api/v1/test/things', { method: 'POST', body, headers: { ...json, authorization: `Bearer ${readKey}`, origin: 'http://attacker.example' } });
    expect(keyed?.status).toBe(201);
    const program = await send('/api/v1/test/things', { method: 'POST', body, headers: { ...json, cookie: member.cookie } });
    expect(program?.status).toBe(201);
  });
});

describe('plain routes: per-IP rate limit', () => {
  it('answers 429 request.rate_limited with Retry-After past the limit, per address', async () => {
    const post = (ip: string) =>
      send('/hooks/test/good-token', { method: 'POST', ip, body: '{}', headers: { 'content-type': 'application/json' } });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await post('203.0.113.7'))?.status).toBe(202);
    const limited = await post('203.0.113.7');
    expect(limited?.status).toBe(429);
    expect(limited?.body.error.code).toBe('request.rate_limited');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited?.body.error.details.retryAfterSeconds).toBe(Number(limited?.headers.get('retry-after')));
    expect((await post('203.0.113.8'))?.status).toBe(202);
  });
});

function countedStream(totalBytes: number) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= totalBytes) return controller.close();
      pulled.bytes += 16 * 1024;
      controller.enqueue(new Uint8Array(16 * 1024).fill(32));
    },
  });
  return { stream, pulled };
}

describe('plain routes: the body', () => {
  it('holds the route’s own bound (256 KB) on the bytes read, and reads no further', async () => {
    const { stream, pulled } = countedStream(10 * 1024 * 1024);
    const response = await send('/hooks/test/good-token', { method: 'POST', ip: '192.0.2.50', body: stream, headers: { 'content-type': 'application/json' } });
    expect(response).toMatchObject({ status: 413, body: { error: { code: 'request.payload_too_large', details: { limitBytes: 256 * 1024 } } } });
    expect(pulled.bytes).toBeLessThanOrEqual(256 * 1024 + 2 * 16 * 1024);
  });

  it('takes exactly the media types the route declares (415 otherwise), up to its bound', async () => {
    const headers = { authorization: `Bearer ${writeKey}` };
    const upload = await send('/api/v1/test/upload', { method: 'POST', body: new Uint8Array(1024 * 1024), headers: { ...headers, 'content-type': 'multipart/form-data; boundary=x' } });
    expect(upload).toMatchObject({ status: 200, body: { size: 1024 * 1024 } });
    const over = await send('/api/v1/test/upload', { method: 'POST', body: new Uint8Array(1024 * 1024 + 1), headers: { ...headers, 'content-type': 'application/octet-stream' } });
    expect(over?.status).toBe(413);
    const json = await send('/api/v1/test/upload', { method: 'POST', body: '{}', headers: { ...headers, 'content-type': 'application/json' } });
    expect(json).toMatchObject({ status: 415, body: { error: { code: 'request.unsupported_media_type', details: { accepted: ['multipart/form-data', 'application/octet-stream'] } } } });
    const form = await send('/hooks/test/good-token', { method: 'POST', ip: '192.0.2.51', body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form?.status).toBe(415);
  });

  it('answers bad JSON and a body off its schema 400', async () => {
    const json = { 'content-type': 'application/json', cookie: member.cookie };
    const broken = await send('/api/v1/test/things', { method: 'POST', body: '{"value": ', headers: json });
    expect(broken).toMatchObject({ status: 400, body: { error: { code: 'request.bad_request' } } });
    const off = await send('/api/v1/test/things', { method: 'POST', body: '{"value": 3}', headers: json });
    expect(off).toMatchObject({ status: 400, body: { error: { details: { in: 'body' } } } });
  });
});

describe('plain routes: idempotency', () => {
  const post = (key: string, value: string, cookie = member.cookie) =>
    send('/api/v1/test/things', { method: 'POST', body: JSON.stringify({ value }), headers: { 'content-type': 'application/json', cookie, 'idempotency-key': key } });

  it('replays the first answer without executing again, 409 for the key with another body, 400 for a bad key', async () => {
    const first = await post('plain-k1', 'a');
    expect(first?.status).toBe(201);
    const before = executions;
    const replay = await post('plain-k1', 'a');
    expect(replay).toMatchObject({ status: 201, body: first?.body });
    expect(replay?.headers.get('idempotency-replayed')).toBe('true');
    expect(executions).toBe(before);
    expect((await post('plain-k1', 'b'))?.body.error.code).toBe('idempotency.key_reused');
    expect((await post('x'.repeat(201), 'a'))?.body.error.code).toBe('idempotency.invalid_key');
  });

  it('writes the first answer under a key whole, as its replays: the stored text, ready for one write', async () => {
    const answer = async (key: string) => {
      const headers = new Headers({ host: 'localhost', [clientIpHeader]: '127.0.0.1', 'content-type': 'application/json', cookie: member.cookie, 'idempotency-key': key });
      const response = await handle(new Request('http://localhost/api/v1/test/things', { method: 'POST', headers, body: JSON.stringify({ value: 'whole' }) }));
      return { text: bufferedTextOf(response!), body: await response!.text() };
    };
    const first = await answer('plain-whole');
    expect(first.text).toBe(first.body);
    expect(JSON.parse(first.body)).toMatchObject({ value: 'whole' });
    expect(await answer('plain-whole')).toEqual(first);
  });

  it('scopes the key to the member', async () => {
    const other = await createMember();
    const mine = await post('plain-k2', 'a');
    const theirs = await post('plain-k2', 'a', other.cookie);
    expect(theirs?.body.n).not.toBe(mine?.body.n);
  });
});

describe('plain routes: unexpected errors', () => {
  it('answers an opaque 500 in the envelope and logs the error once', async () => {
    const logged = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const response = await send('/api/v1/test/boom');
    expect(response).toMatchObject({ status: 500, body: { error: { code: 'internal.error', details: {} } } });
    expect(JSON.stringify(response?.body)).not.toContain('hunter2');
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0][0]).toMatchObject({ path: 'GET /api/v1/test/boom' });
  });

  it('does not log expected errors', async () => {
    const logged = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    await send('/api/v1/test/items/1.txt');
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('plain routes: the document entry comes from the declaration', () => {
  it('documents parameters, body, bound, rate limit and the common codes of each route', () => {
    const paths = plainOperations(testRoutes, 'en') as Record<string, Record<string, any>>;
    const hook = paths['/hooks/test/{token}'].post;
    expect(hook['x-access']).toMatchObject({ kind: 'urlToken' });
    expect(hook['x-max-body-bytes']).toBe(256 * 1024);
    expect(hook['x-rate-limit-per-ip']).toEqual({ limit: 3, windowSeconds: 60 });
    expect(hook.parameters).toEqual([expect.objectContaining({ name: 'token', in: 'path', required: true })]);
    expect(Object.keys(hook.responses)).toEqual(expect.arrayContaining(['202', '413', '415', '429']));
    expect(hook.responses['403']).toBeUndefined();
    const item = paths['/api/v1/test/items/{id}.txt'].get;
    expect(item.parameters.map((parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`)).toEqual(['path:id', 'query:limit']);
    expect(item.security).toEqual([{ sessionCookie: [] }, { apiKey: ['tables:read'] }]);
    const things = paths['/api/v1/test/things'].post;
    expect(things.responses['403']['x-error-codes']).toContain('auth.cross_origin');
    expect(things.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]);
  });
});
