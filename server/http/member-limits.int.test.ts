/**
 * Issue 18 item 5: per-member limits on what costs or reaches outside. At the instance's default sizes
 * (the test processes run with raised ones, see server/testing/test-env.ts; this file puts the
 * defaults back):
 * - a member holds at most 50 live API keys;
 * - a member's requests through all their sessions count against one sliding limit (1,200 a minute);
 * - connection checks, forced analyses, test runs, evaluation runs, uploads and assistant turns each
 *   have a per-member bucket, shared by the member's sessions and keys.
 * Every request goes through the application's real pipeline (server/testing/rest-client.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../core/db';
import { throttleBuckets, type ThrottleBucketName } from '../core/http/member-throttles';
import { createApiKeyFor, createMember, type TestMember } from '../testing/factories';
import { call, type CallResult } from '../testing/rest-client';
import { raisedLimits } from '../testing/test-env';
import { useTestDatabase } from '../testing/test-database';

// The defaults, not the raised test values: deleted before the configuration is read.
const saved = Object.fromEntries(Object.keys(raisedLimits).map((name) => [name, process.env[name]]));
for (const name of Object.keys(raisedLimits)) delete process.env[name];
await useTestDatabase();
afterAll(() => Object.assign(process.env, saved));

function expectThrottled(response: CallResult, bucket: ThrottleBucketName): void {
  expect(response.status, JSON.stringify(response.body)).toBe(429);
  expect(response.body.error).toMatchObject({
    code: 'request.throttled',
    details: { bucket, limit: throttleBuckets[bucket].defaultLimit, windowSeconds: throttleBuckets[bucket].windowSeconds },
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(throttleBuckets[bucket].windowSeconds);
  expect(response.body.error.details.retryAfterSeconds).toBe(retryAfter);
}

describe('a member holds at most 50 live API keys (409 api_key.limit_reached)', () => {
  const create = (member: TestMember, name = 'k') => call('POST', '/api/v1/api-keys', { cookie: member.cookie, body: { name, scopes: ['tables:read'] } });

  it('refuses the 51st live key with details.limit, and a revoked or expired key frees a place', async () => {
    const member = await createMember();
    for (let index = 0; index < 49; index += 1) await createApiKeyFor(member, ['tables:read']);
    const fiftieth = await create(member);
    expect(fiftieth.status).toBe(201);
    const refused = await create(member);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'api_key.limit_reached', details: { limit: 50 } });
    expect(await db().apiKey.count({ where: { memberId: member.id } })).toBe(50);

    expect((await call('POST', `/api/v1/api-keys/${fiftieth.body.key.id}/revoke`, { cookie: member.cookie })).status).toBe(200);
    const afterRevoke = await create(member);
    expect(afterRevoke.status).toBe(201);
    await db().apiKey.update({ where: { id: afterRevoke.body.key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await create(member)).status).toBe(201);
    expect((await create(member)).status).toBe(409);
  });

  it('lets only one of two simultaneous creations take the last place', async () => {
    const member = await createMember();
    for (let index = 0; index < 49; index += 1) await createApiKeyFor(member, ['tables:read']);
    const answers = await Promise.all([create(member, 'a'), create(member, 'b'), create(member, 'c')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(await db().apiKey.count({ where: { memberId: member.id, revokedAt: null } })).toBe(50);
  });

  it('counts per member: another member still creates keys', async () => {
    const full = await createMember();
    for (let index = 0; index < 50; index += 1) await createApiKeyFor(full, ['tables:read']);
    expect((await create(full)).status).toBe(409);
    expect((await create(await createMember())).status).toBe(201);
  });
});

describe('a member’s session requests count against one sliding limit across all their sessions (429 request.rate_limited)', () => {
  it('answers the 1,201st request of the minute 429 with Retry-After, whichever session sends it; keys and other members are not counted there', async () => {
    const member = await createMember();
    const secondSession = (await call('POST', '/api/v1/auth/login', { body: { email: member.email, password: member.password } })).headers.getSetCookie()[0].split(';')[0];
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const other = await createMember();
    // 1,200 requests, half through each session, in batches (one member, one minute).
    for (let sent = 0; sent < 1200; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, index) => call('GET', '/api/v1/auth/me', { cookie: (sent + index) % 2 === 0 ? member.cookie : secondSession })),
      );
      expect(batch.every((response) => response.status === 200), `batch from ${sent}`).toBe(true);
    }
    for (const cookie of [member.cookie, secondSession]) {
      const refused = await call('GET', '/api/v1/auth/me', { cookie });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('request.rate_limited');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.body.error.details.retryAfterSeconds).toBe(retryAfter);
    }
    // The same member's key keeps its own 600 a minute; another member is untouched.
    expect((await call('GET', '/api/v1/auth/me', { key: secret })).status).toBe(200);
    expect((await call('GET', '/api/v1/auth/me', { cookie: other.cookie })).status).toBe(200);
  });
});

/** A small upload, as the webmail's composer sends it. */
function uploadBody(): { rawBody: Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  const boundary = `b${randomUUID()}`;
  const text = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
  return { rawBody: new Uint8Array(Buffer.from(text)), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * One use of each bucket by `member` through `credential`. The targets do not exist (404) or the
 * servers refuse: a use counts whether or not it succeeds, so a script cannot probe for free.
 */
const uses: Record<ThrottleBucketName, (credential: { cookie?: string; key?: string }, index: number) => Promise<CallResult>> = {
  connection_checks: (credential, index) =>
    index % 2 === 0
      ? call('POST', '/api/v1/mailboxes/imap', {
          ...credential,
          body: { address: 'me@example.test', imapHost: '127.0.0.1', imapPort: 9, smtpHost: '127.0.0.1', smtpPort: 9, password: `guess-${index}` },
        })
      : call('POST', `/api/v1/credentials/${randomUUID()}/test`, credential),
  forced_analyses: (credential) => call('POST', `/api/v1/mailboxes/${randomUUID()}/analyze`, { ...credential, body: { force: true } }),
  test_runs: (credential) => call('POST', `/api/v1/workflows/${randomUUID()}/test-runs`, { ...credential, body: {} }),
  eval_runs: (credential) => call('POST', `/api/v1/workflows/${randomUUID()}/eval-runs`, { ...credential, body: {} }),
  uploads: (credential) => call('POST', '/api/v1/messages/attachments', { ...credential, ...uploadBody() }),
  assistant_turns: (credential) => call('POST', `/api/v1/assistant/conversations/${randomUUID()}/turns`, { ...credential, body: { content: 'hello' } }),
};

const scopesFor = ['mailboxes:write', 'connections:write', 'analyzer:write', 'workflows:write', 'messages:write', 'assistant:write'] as const;

describe('per-member throttles on what costs or reaches outside (429 request.throttled)', () => {
  let member: TestMember;
  let key: string;
  let other: TestMember;

  beforeAll(async () => {
    member = await createMember();
    key = (await createApiKeyFor(member, [...scopesFor])).secret;
    other = await createMember();
  });

  it.each(Object.keys(throttleBuckets) as ThrottleBucketName[])(
    '%s: the default number of uses per window, through a session and a key together, then 429 with Retry-After for both; another member is not held',
    async (bucket) => {
      const { defaultLimit } = throttleBuckets[bucket];
      for (let index = 0; index < defaultLimit; index += 1) {
        const response = await uses[bucket](index % 2 === 0 ? { cookie: member.cookie } : { key }, index);
        expect(response.status, `use ${index + 1}: ${JSON.stringify(response.body)}`).not.toBe(429);
      }
      expectThrottled(await uses[bucket]({ cookie: member.cookie }, defaultLimit), bucket);
      expectThrottled(await uses[bucket]({ key }, defaultLimit + 1), bucket);
      expect((await uses[bucket]({ cookie: other.cookie }, 0)).status).not.toBe(429);
    },
  );

  it('counts only forced analyses: an analysis without force is not held by the full bucket', async () => {
    expectThrottled(await uses.forced_analyses({ cookie: member.cookie }, 0), 'forced_analyses');
    const plain = await call('POST', `/api/v1/mailboxes/${randomUUID()}/analyze`, { cookie: member.cookie, body: {} });
    expect(plain.status).toBe(404);
    expect(plain.body.error.code).toBe('analyzer.mailbox_not_found');
  });

  it('does not count a key refused for its scope', async () => {
    const fresh = await createMember();
    const unscoped = (await createApiKeyFor(fresh, ['tables:read'])).secret;
    for (let index = 0; index < 20; index += 1) {
      expect((await uses.connection_checks({ key: unscoped }, index)).status).toBe(403);
    }
    expect((await uses.connection_checks({ cookie: fresh.cookie }, 1)).status).not.toBe(429);
  });
});
