/**
 * Connections of type `llm_provider`: a member's own AI key (`LLM_MEMBER_KEYS=1`), sealed and never
 * returned, its base URL through llm's network guard without the `ai_local` exception, another
 * member's connection 404, and `memberEndpoints` (server/domains/llm) opening them for the AI capability.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { openJson } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { memberEndpoints } from '../llm/member-endpoints';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let admin: TestMember;
const key = 'sk-member-own-key-7788';

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  admin = await createMember({ role: 'admin' });
});

function withEnv(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  resetConfigForTests();
}

beforeEach(async () => {
  await db().credential.deleteMany();
  withEnv('LLM_MEMBER_KEYS', '1');
});

afterEach(() => {
  for (const name of ['LLM_MEMBER_KEYS', 'LLM_LOCAL_ALLOW_PRIVATE', 'LLM_ALLOW_HOSTS']) delete process.env[name];
  resetConfigForTests();
});

function create(who: TestMember, data: unknown, extra: Record<string, unknown> = {}) {
  return call('POST', '/api/v1/credentials', { cookie: who.cookie, body: { type: 'llm_provider', name: 'My vendor', data, ...extra } });
}

async function createOk(who: TestMember, data: unknown): Promise<string> {
  const response = await create(who, data);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

describe('llm_provider connections', () => {
  it('stores the key sealed, lists the connection with a hint only, never the key', async () => {
    const id = await createOk(member, { provider: 'ai_vendor_a', apiKey: key, baseUrl: 'https://8.8.8.8/v1/' });
    const row = await db().credential.findUniqueOrThrow({ where: { id } });
    expect(row.dataEnc).not.toContain(key);
    // The base URL is stored in llm's normal form (no trailing slash).
    expect(openJson(row.dataEnc, `credential:${id}`)).toEqual({ provider: 'ai_vendor_a', apiKey: key, baseUrl: 'https://8.8.8.8/v1' });
    const list = await call('GET', '/api/v1/credentials?type=llm_provider', { cookie: member.cookie });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      { id, type: 'llm_provider', name: 'My vendor', scope: 'member', integration: 'ai_vendor_a', hint: '7788', createdAt: expect.stringMatching(/Z$/), updatedAt: expect.stringMatching(/Z$/) },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(key);
    const updated = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'Renamed', data: { provider: 'ai_vendor_b', apiKey: 'sk-another-key-1234' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.credential).toMatchObject({ name: 'Renamed', integration: 'ai_vendor_b', hint: '1234' });
    expect(JSON.stringify(updated.body)).not.toContain('sk-another-key');
    const audit = await db().auditEntry.findMany({ where: { targetId: id } });
    expect(JSON.stringify(audit)).not.toContain('sk-');
  });

  it.each([
    ['an unknown provider', { provider: 'ai_vendor_z', apiKey: key }],
    ['no key for a vendor', { provider: 'ai_vendor_a' }],
    ['no base URL for the generic provider', { provider: 'ai_generic_compatible' }],
    ['an extra field', { provider: 'ai_vendor_a', apiKey: key, model: 'x' }],
    ['a key over 512 characters', { provider: 'ai_vendor_a', apiKey: 'k'.repeat(513) }],
    ['a non-string key', { provider: 'ai_vendor_a', apiKey: 12 }],
  ])('refuses %s with 400 credential.bad_request', async (_name, data) => {
    const response = await create(member, data);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('credential.bad_request');
    expect(await db().credential.count()).toBe(0);
  });

  it('accepts a keyless local or generic endpoint', async () => {
    withEnv('LLM_ALLOW_HOSTS', '127.0.0.1');
    await createOk(member, { provider: 'ai_generic_compatible', baseUrl: 'http://127.0.0.1:9/v1' });
    await createOk(member, { provider: 'ai_local', baseUrl: 'http://127.0.0.1:11434' });
  });

  it.each([
    ['ai_vendor_a', 'http://127.0.0.1:8080/v1', 'blocked_address'],
    ['ai_generic_compatible', 'http://10.0.0.5/v1', 'blocked_address'],
    ['ai_generic_compatible', 'http://169.254.169.254/', 'blocked_address'],
    ['ai_vendor_a', 'ftp://8.8.8.8/', 'unsupported_url'],
    ['ai_vendor_a', 'https://user:pw@8.8.8.8/', 'unsupported_url'],
  ])('guards the base URL: %s %s → 400 llm.invalid_base_url %s', async (provider, baseUrl, reason) => {
    const response = await create(member, { provider, apiKey: key, baseUrl });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'llm.invalid_base_url', details: { reason } });
    expect(JSON.stringify(response.body)).not.toContain(key);
    expect(await db().credential.count()).toBe(0);
  });

  it('never gives a member the ai_local exception for the instance’s network; LLM_ALLOW_HOSTS opens a host, metadata never', async () => {
    withEnv('LLM_LOCAL_ALLOW_PRIVATE', '1');
    expect((await create(member, { provider: 'ai_local', baseUrl: 'http://127.0.0.1:11434' })).body.error).toMatchObject({ code: 'llm.invalid_base_url', details: { reason: 'blocked_address' } });
    withEnv('LLM_ALLOW_HOSTS', '169.254.169.254,127.0.0.1');
    expect((await create(member, { provider: 'ai_local', baseUrl: 'http://169.254.169.254' })).body.error.code).toBe('llm.invalid_base_url');
    expect((await create(member, { provider: 'ai_local', baseUrl: 'http://127.0.0.1:11434' })).status).toBe(201);
  });

  it('guards a replaced secret too', async () => {
    const id = await createOk(member, { provider: 'ai_vendor_a', apiKey: key });
    const response = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'X', data: { provider: 'ai_vendor_a', apiKey: key, baseUrl: 'http://192.168.1.1/' } } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('llm.invalid_base_url');
  });

  it('is a member’s own key: scope org is refused, even for an administrator', async () => {
    const response = await create(admin, { provider: 'ai_vendor_a', apiKey: key }, { scope: 'org' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'credential.bad_request', details: { reason: 'member_only' } });
  });

  it('is refused with 403 credential.llm_member_keys_disabled when the instance does not allow members’ keys', async () => {
    const id = await createOk(member, { provider: 'ai_vendor_a', apiKey: key });
    withEnv('LLM_MEMBER_KEYS', undefined);
    const response = await create(member, { provider: 'ai_vendor_a', apiKey: key });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('credential.llm_member_keys_disabled');
    const replaced = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'X', data: { provider: 'ai_vendor_a', apiKey: key } } });
    expect(replaced.status).toBe(403);
    // What exists stays listable and deletable, and no endpoint is served.
    expect(await memberEndpoints(member.id)).toEqual([]);
    expect((await call('DELETE', `/api/v1/credentials/${id}`, { cookie: member.cookie })).status).toBe(200);
  });

  it('answers 404 for another member’s connection', async () => {
    const id = await createOk(other, { provider: 'ai_vendor_a', apiKey: key });
    const read = await call('GET', '/api/v1/credentials?type=llm_provider', { cookie: member.cookie });
    expect(read.body.items).toEqual([]);
    const put = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'Mine', data: { provider: 'ai_vendor_a', apiKey: 'sk-stolen-0000' } } });
    expect(put.status).toBe(404);
    expect(put.body.error.code).toBe('request.not_found');
    expect((await call('DELETE', `/api/v1/credentials/${id}`, { cookie: member.cookie })).status).toBe(404);
    expect(await memberEndpoints(member.id)).toEqual([]);
  });

  it('memberEndpoints opens the member’s own endpoints, oldest first', async () => {
    const first = await createOk(member, { provider: 'ai_vendor_b', apiKey: key });
    const second = await createOk(member, { provider: 'ai_vendor_a', apiKey: 'sk-second-key-0001', baseUrl: 'https://8.8.8.8/v1' });
    await createOk(other, { provider: 'ai_vendor_c', apiKey: 'sk-theirs-0002' });
    await call('POST', '/api/v1/credentials', { cookie: member.cookie, body: { type: 'custom_api', name: 'Other', data: { a: 'b' } } });
    expect(await memberEndpoints(member.id)).toEqual([
      { connectionId: first, name: 'My vendor', provider: 'ai_vendor_b', apiKey: key, baseUrl: null },
      { connectionId: second, name: 'My vendor', provider: 'ai_vendor_a', apiKey: 'sk-second-key-0001', baseUrl: 'https://8.8.8.8/v1' },
    ]);
  });
});
