/**
 * The idempotency mechanism itself, over a small router of test routes built with the real procedure
 * builder and REST handler (no spec route of the platform foundation is idempotent yet).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appError } from '../core/errors/app-error';
import { db } from '../core/db';
import { createRestHandler } from '../http/rest-handler';
import { clientIpHeader } from './context';
import { route } from './meta';
import { procedure, router } from './procedures';
import { createMember, type TestMember } from '../testing/factories';
import { useTestDatabase } from '../testing/test-database';

await useTestDatabase();

let executions = 0;
const text = { en: 'test', fr: 'test' };
const testRoute = (path: `/${string}`) =>
  route({ method: 'POST', path, access: { kind: 'member' }, idempotent: true, status: 201, tag: 'Test', summary: text, description: text });

const testRouter = router({
  create: procedure
    .meta(testRoute('/api/v1/test/things'))
    .input(z.object({ value: z.string() }))
    .output(z.object({ n: z.number(), value: z.string() }))
    .mutation(({ input }) => ({ n: ++executions, value: input.value })),
  slow: procedure
    .meta(testRoute('/api/v1/test/slow'))
    .input(z.object({ value: z.string() }))
    .output(z.object({ n: z.number() }))
    .mutation(async () => {
      await sleep(300);
      return { n: ++executions };
    }),
  big: procedure
    .meta(testRoute('/api/v1/test/big'))
    .input(z.object({}))
    .output(z.object({ n: z.number(), blob: z.string() }))
    .mutation(() => ({ n: ++executions, blob: 'x'.repeat(70 * 1024) })),
  refuse: procedure
    .meta(testRoute('/api/v1/test/refuse'))
    .input(z.object({}))
    .output(z.object({}))
    .mutation(() => {
      executions += 1;
      throw appError('governance.not_found');
    }),
});

const handle = createRestHandler(testRouter as never);

async function post(path: string, body: unknown, options: { key?: string; cookie: string }) {
  const headers = new Headers({ 'content-type': 'application/json', cookie: options.cookie, [clientIpHeader]: '127.0.0.1' });
  if (options.key !== undefined) headers.set('idempotency-key', options.key);
  const response = await handle(new Request(`http://localhost${path}`, { method: 'POST', headers, body: JSON.stringify(body) }));
  return { status: response.status, headers: response.headers, body: await response.json() };
}

let member: TestMember;
let other: TestMember;
beforeAll(async () => {
  member = await createMember();
  other = await createMember();
});

describe('Idempotency-Key', () => {
  it('replays the first status and body with Idempotency-Replayed: true, without executing again', async () => {
    const first = await post('/api/v1/test/things', { value: 'a' }, { key: 'k-replay', cookie: member.cookie });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    const before = executions;
    const replay = await post('/api/v1/test/things', { value: 'a' }, { key: 'k-replay', cookie: member.cookie });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(executions).toBe(before);
  });

  it('answers 409 idempotency.key_reused when the same key comes with a different body', async () => {
    await post('/api/v1/test/things', { value: 'a' }, { key: 'k-reuse', cookie: member.cookie });
    const reused = await post('/api/v1/test/things', { value: 'b' }, { key: 'k-reuse', cookie: member.cookie });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency.key_reused');
  });

  it('scopes keys to the member: another member’s same key executes anew', async () => {
    const mine = await post('/api/v1/test/things', { value: 'a' }, { key: 'k-scope', cookie: member.cookie });
    const theirs = await post('/api/v1/test/things', { value: 'a' }, { key: 'k-scope', cookie: other.cookie });
    expect(theirs.body.n).not.toBe(mine.body.n);
    expect(theirs.headers.get('idempotency-replayed')).toBeNull();
  });

  it('scopes keys to the route', async () => {
    await post('/api/v1/test/things', {}, { key: 'k-route', cookie: member.cookie });
    const elsewhere = await post('/api/v1/test/big', {}, { key: 'k-route', cookie: member.cookie });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get('idempotency-replayed')).not.toBe('true');
  });

  it.each([
    ['empty', ''],
    ['201 characters', 'x'.repeat(201)],
  ])('refuses a key that is %s with 400 idempotency.invalid_key', async (_name, key) => {
    const response = await post('/api/v1/test/things', { value: 'a' }, { key, cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('idempotency.invalid_key');
  });

  it('accepts a 200-character key', async () => {
    expect((await post('/api/v1/test/things', { value: 'a' }, { key: 'y'.repeat(200), cookie: member.cookie })).status).toBe(201);
  });

  it('serves a response over 64 KB without storing it (Idempotency-Replayed: unsupported)', async () => {
    const first = await post('/api/v1/test/big', {}, { key: 'k-big', cookie: member.cookie });
    expect(first.status).toBe(201);
    expect(first.body.blob.length).toBe(70 * 1024);
    expect(first.headers.get('idempotency-replayed')).toBe('unsupported');
    expect(await db().idempotencyRecord.count({ where: { key: 'k-big' } })).toBe(0);
  });

  it('replays a first answer that was an error', async () => {
    const first = await post('/api/v1/test/refuse', {}, { key: 'k-error', cookie: member.cookie });
    expect(first.status).toBe(404);
    const before = executions;
    const replay = await post('/api/v1/test/refuse', {}, { key: 'k-error', cookie: member.cookie });
    expect(replay.status).toBe(404);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(executions).toBe(before);
  });

  it('never executes two concurrent requests with one key', async () => {
    const before = executions;
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/v1/test/slow', { value: 'c' }, { key: 'k-concurrent', cookie: member.cookie })),
    );
    expect(executions).toBe(before + 1);
    expect(new Set(responses.map((response) => response.body.n)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get('idempotency-replayed') === 'true')).toHaveLength(4);
  });

  it('executes normally without the header', async () => {
    const a = await post('/api/v1/test/things', { value: 'a' }, { cookie: member.cookie });
    const b = await post('/api/v1/test/things', { value: 'a' }, { cookie: member.cookie });
    expect(b.body.n).toBe(a.body.n + 1);
  });

  it('forgets a key after 24 hours', async () => {
    const first = await post('/api/v1/test/things', { value: 'a' }, { key: 'k-old', cookie: member.cookie });
    await db().idempotencyRecord.updateMany({ where: { key: 'k-old' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const later = await post('/api/v1/test/things', { value: 'a' }, { key: 'k-old', cookie: member.cookie });
    expect(later.body.n).toBeGreaterThan(first.body.n);
    expect(later.headers.get('idempotency-replayed')).toBeNull();
  });
});
