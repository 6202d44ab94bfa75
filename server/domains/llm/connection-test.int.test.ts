import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { seal } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { setConnectionTestNetForTests } from './connection-test';
import { keyPurposeOf } from './repo';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let vendor: FakeVendorServer;
const key = 'sk-test-secret-key-for-the-test-route';

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  vendor = await startFakeVendor('openai');
  setConnectionTestNetForTests(fakeNet);
});
afterAll(async () => {
  setConnectionTestNetForTests({});
  await vendor.close();
});
beforeEach(async () => {
  vendor.reset();
  await db().llmRouting.deleteMany();
  await db().llmConnection.deleteMany();
  await db().auditEntry.deleteMany({ where: { action: { startsWith: 'llm.' } } });
});

/** A connection on the fake vendor (written directly: the API refuses loopback base URLs). */
async function fakeConnection(data: { label: string; isDefault?: boolean; enabledModels?: string[]; provider?: string }) {
  const row = await db().llmConnection.create({ data: { provider: data.provider ?? 'ai_vendor_a', label: data.label, baseUrl: `${vendor.origin}/v1`, isDefault: data.isDefault ?? false, enabledModels: data.enabledModels ?? [] } });
  return db().llmConnection.update({ where: { id: row.id }, data: { apiKeyEnc: seal(key, keyPurposeOf(row.id)) } });
}

describe('POST /api/v1/admin/llm/connections/{id}/test', () => {
  it('answers ok with the model count and latency, using the stored key, audited without it', async () => {
    const connection = await fakeConnection({ label: 'Fake' });
    const response = await call('POST', `/api/v1/admin/llm/connections/${connection.id}/test`, { cookie: admin.cookie });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ ok: true, modelCount: expect.any(Number), latencyMs: expect.any(Number) });
    expect(vendor.lastRequest?.headers.authorization).toBe(`Bearer ${key}`);
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'llm.connection_tested' } });
    expect(audit).toMatchObject({ targetId: connection.id, details: { ok: true } });
    expect(JSON.stringify(audit)).not.toContain(key);
  });

  it('answers ok false with a code and our message when the provider refuses the key (never the key itself)', async () => {
    const connection = await fakeConnection({ label: 'Fake' });
    vendor.replyToListing({ kind: 'error', status: 401, echoKey: true });
    const response = await call('POST', `/api/v1/admin/llm/connections/${connection.id}/test`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: false, code: 'auth', message: expect.any(String) });
    expect(JSON.stringify(response.body)).not.toContain(key);
  });

  it('without a test opening, reaches a compatible server on the instance’s network only when LLM_ALLOW_HOSTS names it', async () => {
    const connection = await fakeConnection({ label: 'Fake', provider: 'ai_generic_compatible' });
    setConnectionTestNetForTests({});
    try {
      const refused = await call('POST', `/api/v1/admin/llm/connections/${connection.id}/test`, { cookie: admin.cookie });
      expect(refused.body).toMatchObject({ ok: false });
      expect(vendor.requests).toHaveLength(0);
      process.env.LLM_ALLOW_HOSTS = '127.0.0.1';
      resetConfigForTests();
      const allowed = await call('POST', `/api/v1/admin/llm/connections/${connection.id}/test`, { cookie: admin.cookie });
      expect(allowed.body).toMatchObject({ ok: true });
    } finally {
      delete process.env.LLM_ALLOW_HOSTS;
      resetConfigForTests();
      setConnectionTestNetForTests(fakeNet);
    }
  });

  it('is 404 for an unknown id, 403 for a member and for a key without admin:write', async () => {
    expect((await call('POST', '/api/v1/admin/llm/connections/00000000-0000-4000-8000-000000000000/test', { cookie: admin.cookie })).body).toMatchObject({ error: { code: 'llm.connection_not_found' } });
    const connection = await fakeConnection({ label: 'Fake' });
    expect((await call('POST', `/api/v1/admin/llm/connections/${connection.id}/test`, { cookie: member.cookie })).status).toBe(403);
    const readKey = await createApiKeyFor(admin, ['admin:read']);
    expect((await call('POST', `/api/v1/admin/llm/connections/${connection.id}/test`, { key: readKey.secret })).status).toBe(403);
  });
});

describe('GET /api/v1/assistant/models', () => {
  it('answers a null default and no options without connections', async () => {
    const response = await call('GET', '/api/v1/assistant/models', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ default: null, options: [] });
  });

  it('answers the default serving the assistant and every enabled model per connection', async () => {
    const first = await fakeConnection({ label: 'First', enabledModels: ['m-1', 'm-2'] });
    const second = await fakeConnection({ label: 'Local', provider: 'ai_local', isDefault: true, enabledModels: ['llama'] });
    const response = await call('GET', '/api/v1/assistant/models', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      default: { provider: 'ai_local', model: 'llama', source: 'instanceDefault' },
      options: [
        { provider: 'ai_vendor_a', model: 'm-1', connectionId: first.id, connectionLabel: 'First', supportsTools: true },
        { provider: 'ai_vendor_a', model: 'm-2', connectionId: first.id, connectionLabel: 'First', supportsTools: true },
        { provider: 'ai_local', model: 'llama', connectionId: second.id, connectionLabel: 'Local', supportsTools: expect.any(Boolean) },
      ],
    });
    expect(JSON.stringify(response.body)).not.toContain(key);
  });

  it('needs assistant:read', async () => {
    const otherKey = await createApiKeyFor(member, ['workflows:read']);
    expect((await call('GET', '/api/v1/assistant/models', { key: otherKey.secret })).status).toBe(403);
    const readKey = await createApiKeyFor(member, ['assistant:read']);
    expect((await call('GET', '/api/v1/assistant/models', { key: readKey.secret })).status).toBe(200);
  });
});
