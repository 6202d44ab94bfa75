import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { config } from '../core/config';
import { db } from '../core/db';
import { jobKeys } from '../core/jobs/catalogue';
import { purgeWebhookDeliveries, webhookSignature } from '../engine/dispatch/webhook';
import { useTestDatabase } from '../testing/test-database';
import { executionsOf, useWebhookCalls, withSetting } from '../testing/webhook-calls';
import { handleApiRequest } from './api-handler';

await useTestDatabase();

const calls = useWebhookCalls(handleApiRequest);
const { hook, post, uniqueIp } = calls;

/** Another connection holds `table` (EXCLUSIVE: no writes) for 7 s while `during` runs; answers what it answered. */
async function whileLockedFor7s<T>(table: 'executions' | 'webhook_deliveries', during: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  const letGo = new Promise((resolve) => setTimeout(resolve, 7_000)).then(() => holder.query('ROLLBACK'));
  try {
    return await during();
  } finally {
    await letGo;
    await holder.end();
  }
}

describe('POST /hooks/wf/{token}', () => {
  it('202 {executionId}: a real run of the published version with the body as trigger data, its advance queued', async () => {
    const { workflow, version, token } = await hook();
    const response = await post(token, JSON.stringify({ order: 42, items: [{ sku: 'a' }] }));
    expect(response.status).toBe(202);
    const execution = await db().execution.findUniqueOrThrow({ where: { id: response.body!.executionId } });
    expect(execution).toMatchObject({
      workflowId: workflow.id,
      workflowVersionId: version!.id,
      memberId: calls.member.id,
      triggerType: 'webhook',
      triggerNodeId: 'start',
      triggerData: { order: 42, items: [{ sku: 'a' }] },
      simulated: false,
      holdsSlot: true,
      status: 'queued',
      messageId: null,
    });
    const jobs = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = ${jobKeys.execution(execution.id)}`;
    expect(jobs[0]!.n).toBe(1n);
  });

  it('answers its 202 whole, with its length and `cache-control: no-store`, as a repeated key’s replay', async () => {
    const { token } = await hook();
    const send = () =>
      fetch(`${calls.base}/hooks/wf/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp(), 'idempotency-key': 'whole-answer' },
        body: '{"a":1}',
      });
    for (const response of [await send(), await send()]) {
      const text = await response.text();
      expect(response.status).toBe(202);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('cache-control')).toBe('no-store');
      // Written in one call with its length (json-answer.ts), not streamed in chunks.
      expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      expect(response.headers.get('transfer-encoding')).toBeNull();
      expect(JSON.parse(text)).toEqual({ executionId: expect.any(String) });
    }
  });

  it('takes prototype-named keys of the body as plain data, never as prototypes', async () => {
    const { token } = await hook();
    const body = '{"__proto__":{"polluted":true},"constructor":{"prototype":1},"toString":"x"}';
    const response = await post(token, body);
    expect(response.status).toBe(202);
    const execution = await db().execution.findUniqueOrThrow({ where: { id: response.body!.executionId } });
    const data = execution.triggerData as Record<string, unknown>;
    // `constructor`, `toString` & co. are kept as own keys; a `__proto__` key is dropped when the run is written
    // (never applied as a prototype): the stored object is plain data either way.
    expect(Object.keys(data).sort()).toEqual(['constructor', 'toString']);
    expect(data.constructor).toEqual({ prototype: 1 });
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(data.toString).toBe('x');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stores the same trigger data with and without an Idempotency-Key (the one-statement start and the transaction)', async () => {
    const { token } = await hook();
    const body = '{"order":{"__proto__":{"polluted":true},"lines":[{"__proto__":1,"sku":"A-1"}],"note":"café ✓"},"n":1.5}';
    const plain = await post(token, body);
    const keyed = await post(token, body, { 'Idempotency-Key': `same-data-${randomUUID()}` });
    expect([plain.status, keyed.status]).toEqual([202, 202]);
    const [first, second] = await Promise.all(
      [plain, keyed].map((response) => db().execution.findUniqueOrThrow({ where: { id: response.body!.executionId } })),
    );
    expect(first.triggerData).toEqual({ order: { lines: [{ sku: 'A-1' }], note: 'café ✓' }, n: 1.5 });
    expect(second.triggerData).toEqual(first.triggerData);
    expect([first.status, first.holdsSlot, first.timeoutMs, first.triggerType]).toEqual([second.status, second.holdsSlot, second.timeoutMs, second.triggerType]);
  });

  it('needs no credential and ignores cookies and foreign origins (a token route)', async () => {
    const { token } = await hook();
    const response = await post(token, '{}', { origin: 'https://evil.example', cookie: calls.member.cookie });
    expect(response.status).toBe(202);
  });

  it('400 request.bad_request for anything but a JSON object', async () => {
    const { workflow, token } = await hook();
    for (const body of ['[1,2]', '"text"', '42', 'null', '{"a":', 'not json', '{"a":"\\u0000"}']) {
      const response = await post(token, body);
      expect(response.status, body).toBe(400);
      expect(response.body!.error.code, body).toBe('request.bad_request');
    }
    expect(await executionsOf(workflow.id)).toHaveLength(0);
  });

  it('415 for a body that is not declared JSON', async () => {
    const { token } = await hook();
    const response = await post(token, '{}', { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect(response.body!.error.code).toBe('request.unsupported_media_type');
  });

  it('413 request.payload_too_large above 256 KB, counted on the bytes read; 256 KB itself passes', async () => {
    const { workflow, token } = await hook();
    const filler = (total: number) => JSON.stringify({ x: 'a'.repeat(total - 8) });
    expect(Buffer.byteLength(filler(256 * 1024))).toBe(256 * 1024);
    expect((await post(token, filler(256 * 1024))).status).toBe(202);
    const tooLarge = await post(token, filler(256 * 1024 + 1));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body!.error.code).toBe('request.payload_too_large');
    expect(await executionsOf(workflow.id)).toHaveLength(1);
  });

  it('404 webhook.not_found for an unknown token and for a workflow that cannot start, alike', async () => {
    const unknown = await post(randomBytes(32).toString('base64url'), '{}');
    expect(unknown.status).toBe(404);
    expect(unknown.body!.error.code).toBe('webhook.not_found');

    const paused = await hook({ paused: true });
    const unpublished = await hook({ publish: false });
    const archived = await hook();
    await db().workflow.update({ where: { id: archived.workflow.id }, data: { archivedAt: new Date() } });
    const mailTriggered = await hook({
      graph: { nodes: [{ id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params: {}, position: { x: 0, y: 0 } }], connections: [] },
    });
    for (const { token, workflow } of [paused, unpublished, archived, mailTriggered]) {
      const response = await post(token, '{}');
      expect(response.status).toBe(404);
      expect(response.body).toEqual(unknown.body);
      expect(await executionsOf(workflow.id)).toHaveLength(0);
    }
  });

  it('405 for another method on the path', async () => {
    const { token } = await hook();
    const response = await fetch(`${calls.base}/hooks/wf/${token}`, { headers: { 'x-forwarded-for': uniqueIp() } });
    expect(response.status).toBe(405);
  });

  it('429 request.rate_limited per client address, with the retry delay; another address is not affected', async () => {
    const { token } = await hook();
    const ip = '198.51.100.7';
    const statuses: number[] = [];
    for (let index = 0; index < 121; index += 1) statuses.push((await post(token, '{}', {}, ip)).status);
    expect(statuses.slice(0, 120).every((status) => status === 202)).toBe(true);
    const limited = await post(token, '{}', {}, ip);
    expect(limited.status).toBe(429);
    expect(limited.body!.error.code).toBe('request.rate_limited');
    expect(limited.body!.error.details.retryAfterSeconds).toBeGreaterThan(0);
    // Counted before the token is looked at: an unknown token from that address is limited too.
    expect((await post('unknown-token', '{}', {}, ip)).status).toBe(429);
    expect((await post(token, '{}', {}, uniqueIp())).status).toBe(202);
  });
});

describe('POST /hooks/wf/{token}: WEBHOOK_RATE_LIMIT', () => {
  const withWebhookRateLimit = (value: string, body: () => Promise<void>) => withSetting('WEBHOOK_RATE_LIMIT', value, body);

  it('a lowered limit trips at that count per address, with the retry delay', async () => {
    const { token } = await hook();
    await withWebhookRateLimit('5', async () => {
      const ip = '198.51.100.21';
      const statuses: number[] = [];
      for (let index = 0; index < 5; index += 1) statuses.push((await post(token, '{}', {}, ip)).status);
      expect(statuses).toEqual([202, 202, 202, 202, 202]);
      const limited = await post(token, '{}', {}, ip);
      expect(limited.status).toBe(429);
      expect(limited.body!.error.code).toBe('request.rate_limited');
      expect(limited.body!.error.details.retryAfterSeconds).toBeGreaterThan(0);
      expect((await post(token, '{}', {}, uniqueIp())).status).toBe(202);
    });
  });

  it('0 turns the limit off: one address goes past what a lowered limit allowed', async () => {
    const { workflow, token } = await hook();
    await withWebhookRateLimit('0', async () => {
      const ip = '198.51.100.22';
      const statuses: number[] = [];
      for (let index = 0; index < 8; index += 1) statuses.push((await post(token, '{}', {}, ip)).status);
      expect(statuses.every((status) => status === 202)).toBe(true);
      expect(await executionsOf(workflow.id)).toHaveLength(8);
    });
  });

  it('a value out of bounds stops the configuration with the variable named', async () => {
    for (const value of ['-1', '2.5', 'many', '1000001']) {
      await withWebhookRateLimit(value, async () => {
        expect(() => config()).toThrow(/WEBHOOK_RATE_LIMIT/);
      });
    }
  });
});

describe('POST /hooks/wf/{token}: WEBHOOK_MAX_QUEUED', () => {
  // No runner takes jobs in this file: every accepted run stays queued.
  it('a workflow with that many runs waiting starts nothing more: 503 internal.busy with Retry-After, until one leaves the queue', async () => {
    const { workflow, token } = await hook();
    await withSetting('WEBHOOK_MAX_QUEUED', '3', async () => {
      const statuses: number[] = [];
      for (let index = 0; index < 3; index += 1) statuses.push((await post(token, `{"n":${index}}`)).status);
      expect(statuses).toEqual([202, 202, 202]);
      const refused = await post(token, '{"n":3}');
      expect(refused.status).toBe(503);
      expect(refused.body!.error.code).toBe('internal.busy');
      expect(refused.body!.error.details).toMatchObject({ reason: 'backlog', retryAfterSeconds: 10 });
      expect(refused.retryAfter).toBe('10');
      expect(await executionsOf(workflow.id)).toHaveLength(3);

      // One run leaves the queue (admitted): a call starts again.
      const [first] = await executionsOf(workflow.id);
      await db().execution.update({ where: { id: first!.id }, data: { status: 'running' } });
      expect((await post(token, '{"n":4}')).status).toBe(202);
      expect(await executionsOf(workflow.id)).toHaveLength(4);
    });
  });

  it('counts the workflow’s own backlog: another workflow’s queue does not refuse it', async () => {
    const busy = await hook();
    const quiet = await hook();
    await withSetting('WEBHOOK_MAX_QUEUED', '2', async () => {
      for (let index = 0; index < 2; index += 1) expect((await post(busy.token, '{}')).status).toBe(202);
      expect((await post(busy.token, '{}')).status).toBe(503);
      expect((await post(quiet.token, '{}')).status).toBe(202);
    });
  });

  it('a repeated Idempotency-Key still answers its run while the backlog is full; a new key is refused', async () => {
    const { workflow, token } = await hook();
    await withSetting('WEBHOOK_MAX_QUEUED', '1', async () => {
      const first = await post(token, '{}', { 'idempotency-key': 'order-1' });
      expect(first.status).toBe(202);
      const again = await post(token, '{}', { 'idempotency-key': 'order-1' });
      expect(again).toMatchObject({ status: 202, body: { executionId: first.body!.executionId } });
      const other = await post(token, '{}', { 'idempotency-key': 'order-2' });
      expect(other.status).toBe(503);
      expect(other.body!.error.details.reason).toBe('backlog');
      expect(await db().webhookDelivery.count({ where: { workflowId: workflow.id } })).toBe(1);
      expect(await executionsOf(workflow.id)).toHaveLength(1);
    });
  });

  it('0 turns the bound off', async () => {
    const { workflow, token } = await hook();
    await withSetting('WEBHOOK_MAX_QUEUED', '0', async () => {
      for (let index = 0; index < 4; index += 1) expect((await post(token, '{}')).status).toBe(202);
      expect(await executionsOf(workflow.id)).toHaveLength(4);
    });
  });

  it('a value out of bounds stops the configuration with the variable named', async () => {
    for (const value of ['-1', '2.5', 'many', '1000001']) {
      await withSetting('WEBHOOK_MAX_QUEUED', value, async () => {
        expect(() => config()).toThrow(/WEBHOOK_MAX_QUEUED/);
      });
    }
  });
});

describe('POST /hooks/wf/{token}: signature', () => {
  const signed = (secret: string, body: string, timestamp = String(Math.floor(Date.now() / 1000))) => ({
    'x-signature': `sha256=${webhookSignature(secret, timestamp, Buffer.from(body))}`,
    'x-signature-timestamp': timestamp,
  });

  it('accepts a valid signature over "<timestamp>.<raw body>"', async () => {
    const { token, secret } = await hook({ secret: true });
    const body = '{"event":"paid","amount":10}';
    const response = await post(token, body, signed(secret!, body));
    expect(response.status).toBe(202);
  });

  it('401 webhook.signature_required without the headers', async () => {
    const { workflow, token, secret } = await hook({ secret: true });
    const body = '{}';
    expect((await post(token, body)).body!.error.code).toBe('webhook.signature_required');
    const onlySignature = await post(token, body, { 'x-signature': signed(secret!, body)['x-signature'] });
    expect(onlySignature.status).toBe(401);
    expect(onlySignature.body!.error.code).toBe('webhook.signature_required');
    expect(await executionsOf(workflow.id)).toHaveLength(0);
  });

  it('401 webhook.signature_invalid for a wrong secret, a changed body, a bad format or a timestamp out of the window', async () => {
    const { workflow, token, secret } = await hook({ secret: true });
    const body = '{"a":1}';
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, string>[] = [
      signed('another-secret', body),
      { ...signed(secret!, '{"a":2}'), 'x-signature-timestamp': String(now) },
      { ...signed(secret!, body), 'x-signature': 'md5=abc' },
      { ...signed(secret!, body), 'x-signature': 'sha256=zz' },
      // Well outside the 300 s window (a second may pass between here and the server's clock read).
      signed(secret!, body, String(now - 400)),
      signed(secret!, body, String(now + 400)),
      signed(secret!, body, 'yesterday'),
    ];
    for (const headers of cases) {
      const response = await post(token, body, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body!.error.code).toBe('webhook.signature_invalid');
    }
    // The signature of a different timestamp does not carry over.
    const stale = signed(secret!, body, String(now - 10));
    expect((await post(token, body, { ...stale, 'x-signature-timestamp': String(now) })).status).toBe(401);
    expect(await executionsOf(workflow.id)).toHaveLength(0);
    // Within the window on either side passes.
    expect((await post(token, body, signed(secret!, body, String(now - 290)))).status).toBe(202);
  });

  it('never answers the secret', async () => {
    const { token, secret } = await hook({ secret: true });
    const response = await post(token, '{}', signed('wrong', '{}'));
    expect(JSON.stringify(response.body)).not.toContain(secret!);
  });
});

describe('POST /hooks/wf/{token}: Idempotency-Key', () => {
  it('a repeat within 24 hours answers 202 with the first executionId and starts nothing', async () => {
    const { workflow, token } = await hook();
    const first = await post(token, '{"n":1}', { 'idempotency-key': 'delivery-1' });
    const again = await post(token, '{"n":1}', { 'idempotency-key': 'delivery-1' });
    expect(first.status).toBe(202);
    expect(again).toEqual(first);
    const other = await post(token, '{"n":2}', { 'idempotency-key': 'delivery-2' });
    expect(other.body!.executionId).not.toBe(first.body!.executionId);
    expect(await executionsOf(workflow.id)).toHaveLength(2);
  });

  it('keys are per workflow', async () => {
    const a = await hook();
    const b = await hook();
    const first = await post(a.token, '{}', { 'idempotency-key': 'shared' });
    const second = await post(b.token, '{}', { 'idempotency-key': 'shared' });
    expect(second.body!.executionId).not.toBe(first.body!.executionId);
  });

  it('concurrent repeats start one execution and all answer it', async () => {
    const { workflow, token } = await hook();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(token, '{}', { 'idempotency-key': 'burst' })));
    expect(answers.every((answer) => answer.status === 202)).toBe(true);
    expect(new Set(answers.map((answer) => answer.body!.executionId)).size).toBe(1);
    expect(await executionsOf(workflow.id)).toHaveLength(1);
  });

  it('a key older than 24 hours is free again, and housekeeping purges such keys', async () => {
    const { workflow, token } = await hook();
    const first = await post(token, '{}', { 'idempotency-key': 'old' });
    await db().webhookDelivery.updateMany({ where: { workflowId: workflow.id }, data: { createdAt: new Date(Date.now() - 25 * 3_600_000) } });
    const later = await post(token, '{}', { 'idempotency-key': 'old' });
    expect(later.body!.executionId).not.toBe(first.body!.executionId);

    const recent = await post(token, '{}', { 'idempotency-key': 'recent' });
    await db().webhookDelivery.create({ data: { workflowId: workflow.id, idempotencyKey: 'stale', executionId: randomUUID(), createdAt: new Date(Date.now() - 25 * 3_600_000) } });
    expect(await purgeWebhookDeliveries()).toBeGreaterThanOrEqual(1);
    const left = await db().webhookDelivery.findMany({ where: { workflowId: workflow.id } });
    expect(left.map((row) => row.idempotencyKey).sort()).toEqual(['old', 'recent']);
    expect(left.find((row) => row.idempotencyKey === 'recent')!.executionId).toBe(recent.body!.executionId);
  });

  it('503 internal.busy when its transaction outlives its time (a database too slow), starting nothing; the same key tried again starts the run', async () => {
    const { workflow, token } = await hook();
    // Another transaction holds the table for 7 s: the delivery's transaction waits past Prisma's 5 s and
    // is rolled back (once its blocked statement returns, when the table is let go).
    const response = await whileLockedFor7s('webhook_deliveries', () => post(token, '{}', { 'idempotency-key': 'slow' }));
    expect(response.status).toBe(503);
    expect(response.body!.error).toMatchObject({ code: 'internal.busy', details: { reason: 'database', retryAfterSeconds: 2 } });
    expect(await executionsOf(workflow.id)).toHaveLength(0);
    const again = await post(token, '{}', { 'idempotency-key': 'slow' });
    expect(again.status).toBe(202);
    expect(await executionsOf(workflow.id)).toHaveLength(1);
  }, 30_000);

  it('503 internal.busy without a key too when the start outlives its 5 s (a locked table), starting nothing; tried again it starts', async () => {
    const { workflow, token } = await hook();
    // The run and its job are one statement on their own (no transaction of the caller's): bounded by its
    // statement_timeout as the keyed call's transaction is by Prisma's timeout.
    const response = await whileLockedFor7s('executions', () => post(token, '{"amount":1}'));
    expect(response.status).toBe(503);
    expect(response.body!.error).toMatchObject({ code: 'internal.busy', details: { reason: 'database', retryAfterSeconds: 2 } });
    expect(await executionsOf(workflow.id)).toHaveLength(0);
    const jobs = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key LIKE 'execution:%' AND substr(key, 11) NOT IN (SELECT id::text FROM executions)`;
    expect(jobs[0]!.n).toBe(0n);
    const again = await post(token, '{"amount":1}');
    expect(again.status).toBe(202);
    expect(await executionsOf(workflow.id)).toHaveLength(1);
  }, 30_000);

  it('400 idempotency.invalid_key for a key over 200 characters', async () => {
    const { workflow, token } = await hook();
    const response = await post(token, '{}', { 'idempotency-key': 'k'.repeat(201) });
    expect(response.status).toBe(400);
    expect(response.body!.error.code).toBe('idempotency.invalid_key');
    expect(await executionsOf(workflow.id)).toHaveLength(0);
  });
});

describe('paths under /hooks/', () => {
  it('a malformed webhook path answers the JSON envelope, not a page', async () => {
    for (const path of ['/hooks/wf/', '/hooks/wf', '/hooks/other/x', '/hooks/wf/a/b']) {
      const response = await fetch(`${calls.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() }, body: '{}' });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code, path).toBe('request.not_found');
    }
  });
});
