/**
 * Members' own AI keys around the settings page: whether the instance allows them (`GET
 * /api/v1/llm-member-keys`) and testing one (`POST /api/v1/credentials/{id}/test`) against a fake
 * OpenAI-compatible vendor on 127.0.0.1 (opened by `LLM_ALLOW_HOSTS`, as an operator would).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let vendor: FakeVendorServer;
const key = 'sk-member-test-key-4321';

function withEnv(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  resetConfigForTests();
}

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  vendor = await startFakeVendor('openai');
});
afterAll(async () => {
  await vendor?.close();
});
beforeEach(async () => {
  await db().credential.deleteMany();
  vendor.reset();
  withEnv('LLM_MEMBER_KEYS', '1');
  withEnv('LLM_ALLOW_HOSTS', '127.0.0.1');
});
afterEach(() => {
  for (const name of ['LLM_MEMBER_KEYS', 'LLM_ALLOW_HOSTS']) delete process.env[name];
  resetConfigForTests();
});

async function createKey(who: TestMember, data: Record<string, unknown>): Promise<string> {
  const response = await call('POST', '/api/v1/credentials', { cookie: who.cookie, body: { type: 'llm_provider', name: 'My key', data } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

const test = (who: TestMember, id: string) => call('POST', `/api/v1/credentials/${id}/test`, { cookie: who.cookie, body: {} });

describe('GET /api/v1/llm-member-keys', () => {
  it('says whether members may store their own keys, and what each provider needs', async () => {
    const allowed = await call('GET', '/api/v1/llm-member-keys', { cookie: member.cookie });
    expect(allowed.status).toBe(200);
    expect(allowed.body.allowed).toBe(true);
    expect(allowed.body.providers).toHaveLength(7);
    expect(allowed.body.providers).toContainEqual({ provider: 'ai_vendor_a', apiKey: 'required', baseUrl: 'optional' });
    expect(allowed.body.providers).toContainEqual({ provider: 'ai_local', apiKey: 'optional', baseUrl: 'optional' });
    expect(allowed.body.providers).toContainEqual({ provider: 'ai_generic_compatible', apiKey: 'optional', baseUrl: 'required' });
    withEnv('LLM_MEMBER_KEYS', undefined);
    const refused = await call('GET', '/api/v1/llm-member-keys', { cookie: member.cookie });
    expect(refused.body.allowed).toBe(false);
    expect((await call('GET', '/api/v1/llm-member-keys')).status).toBe(401);
  });
});

describe('POST /api/v1/credentials/{id}/test', () => {
  it('lists the models with the member’s key: ok with the count; the key went to the vendor and nowhere else', async () => {
    const id = await createKey(member, { provider: 'ai_generic_compatible', apiKey: key, baseUrl: `${vendor.origin}/v1` });
    vendor.models = ['model-one', 'model-two'];
    const answer = await test(member, id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ ok: true, modelCount: 2, latencyMs: expect.any(Number) });
    expect(vendor.lastRequest?.headers.authorization).toBe(`Bearer ${key}`);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'credential.tested', targetId: id } });
    expect(audit.details).toMatchObject({ provider: 'ai_generic_compatible', ok: true, code: null });
    expect(JSON.stringify(audit)).not.toContain(key);
  });

  it('a refused key answers ok false with our code and message, never the vendor’s text or the key', async () => {
    const id = await createKey(member, { provider: 'ai_generic_compatible', apiKey: key, baseUrl: `${vendor.origin}/v1` });
    vendor.replyToListing({ kind: 'error', status: 401, echoKey: true });
    const answer = await test(member, id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: false, code: expect.any(String), message: expect.any(String) });
    expect(answer.body.message.length).toBeLessThanOrEqual(300);
    expect(JSON.stringify(answer.body)).not.toContain(key);
    expect(JSON.stringify(answer.body)).not.toContain('Incorrect API key');
  });

  it('another member’s key or an unknown id is 404; another type 400 not_testable; members’ keys not allowed 403', async () => {
    const theirs = await createKey(other, { provider: 'ai_vendor_a', apiKey: key });
    const mine = await createKey(member, { provider: 'ai_generic_compatible', baseUrl: `${vendor.origin}/v1` });
    expect((await test(member, theirs)).status).toBe(404);
    expect((await test(member, theirs)).body.error.code).toBe('request.not_found');
    expect((await test(member, '00000000-0000-4000-8000-000000000009')).status).toBe(404);
    const custom = await call('POST', '/api/v1/credentials', { cookie: member.cookie, body: { type: 'custom_api', name: 'Other', data: { a: 'b' } } });
    const notTestable = await test(member, custom.body.id);
    expect(notTestable.status).toBe(400);
    expect(notTestable.body.error).toMatchObject({ code: 'credential.bad_request', details: { reason: 'not_testable' } });
    expect((await test(member, 'not-a-uuid')).body.error.code).toBe('credential.bad_request');
    withEnv('LLM_MEMBER_KEYS', undefined);
    const disabled = await test(member, mine);
    expect(disabled.status).toBe(403);
    expect(disabled.body.error.code).toBe('credential.llm_member_keys_disabled');
    expect(vendor.requests).toHaveLength(0);
  });
});
