import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { resealSecrets } from '../../core/crypto/reseal';
import { deriveKey, open } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
const key = 'sk-test-very-secret-vendor-key-9XyZ';
const adminPath = '/api/v1/admin/llm/connections';

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

beforeEach(async () => {
  await db().llmConnection.deleteMany();
  await db().auditEntry.deleteMany({ where: { action: { startsWith: 'llm.' } } });
});

afterEach(() => {
  delete process.env.LLM_LOCAL_ALLOW_PRIVATE;
  resetConfigForTests();
});

function create(body: unknown, who: TestMember = admin, headers?: Record<string, string>) {
  return call('POST', adminPath, { cookie: who.cookie, body, headers });
}

function update(id: string, body: unknown, who: TestMember = admin) {
  return call('PUT', `${adminPath}/${id}`, { cookie: who.cookie, body });
}

async function created(body: Record<string, unknown>) {
  const response = await create(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; label: string; isDefault: boolean };
}

function withEnv(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  resetConfigForTests();
}

describe('POST /api/v1/admin/llm/connections', () => {
  it('answers 201 with the admin form; the key is sealed, never returned, and audited without it', async () => {
    const response = await create({ provider: 'ai_vendor_a', label: 'Vendor A', apiKey: key, enabledModels: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-mini'] });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      provider: 'ai_vendor_a',
      label: 'Vendor A',
      isDefault: false,
      hasApiKey: true,
      apiKeyHint: '9XyZ',
      baseUrl: null,
      enabledModels: ['gpt-4.1-mini', 'gpt-4.1'],
      updatedAt: expect.stringMatching(/Z$/),
    });
    const row = await db().llmConnection.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(row.apiKeyEnc).not.toContain(key);
    expect(open(row.apiKeyEnc!, `llm-connection:${row.id}`)).toBe(key);
    expect(row.createdBy).toBe(admin.id);

    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'llm.connection_created' } });
    expect(entry).toMatchObject({ actorMemberId: admin.id, targetKind: 'llm_connection', targetId: row.id, details: { provider: 'ai_vendor_a', label: 'Vendor A' } });
    expect(JSON.stringify(entry)).not.toContain(key);
    expect(JSON.stringify(entry)).not.toContain('9XyZ');

    const list = await call('GET', adminPath, { cookie: admin.cookie });
    expect(list.status).toBe(200);
    expect(list.body.connections).toEqual([response.body]);
    expect(JSON.stringify(list.body)).not.toContain(key);
  });

  it('gives no hint for a short key', async () => {
    expect((await created({ provider: 'ai_vendor_b', label: 'Short', apiKey: 'abc1234' })) as unknown).toMatchObject({ hasApiKey: true, apiKeyHint: null });
  });

  it('replays an Idempotency-Key: one connection, one audit entry, the same answer', async () => {
    const headers = { 'idempotency-key': 'llm-create-1' };
    const first = await create({ provider: 'ai_vendor_a', label: 'Once', apiKey: key }, admin, headers);
    const again = await create({ provider: 'ai_vendor_a', label: 'Once', apiKey: key }, admin, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await db().llmConnection.count()).toBe(1);
    expect(await db().auditEntry.count({ where: { action: 'llm.connection_created' } })).toBe(1);
  });

  it('answers 409 llm.connection_label_taken for a label in use, whatever its case', async () => {
    await created({ provider: 'ai_vendor_a', label: 'Main', apiKey: key });
    for (const label of ['Main', 'MAIN', ' main ']) {
      const response = await create({ provider: 'ai_vendor_b', label, apiKey: key });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('llm.connection_label_taken');
    }
    expect(await db().llmConnection.count()).toBe(1);
  });

  it.each([
    ['a vendor without a key', { provider: 'ai_vendor_a', label: 'x' }, 'missing'],
    ['a vendor asked to work without a key', { provider: 'ai_vendor_c', label: 'x', withoutApiKey: true }, 'provider_needs_key'],
    ['a local runtime with withoutApiKey false and no key', { provider: 'ai_local', label: 'x', withoutApiKey: false }, 'missing'],
  ])('answers 400 llm.api_key_required for %s', async (_label, body, reason) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'llm.api_key_required', details: { reason } });
  });

  it('answers 400 request.bad_request for a key together with withoutApiKey', async () => {
    const response = await create({ provider: 'ai_local', label: 'x', apiKey: key, withoutApiKey: true });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('creates a keyless local connection, even without an instance key', async () => {
    withEnv('LLM_LOCAL_ALLOW_PRIVATE', '1');
    const saved = process.env.ENCRYPTION_KEY;
    withEnv('ENCRYPTION_KEY', undefined);
    try {
      const body = await created({ provider: 'ai_local', label: 'Ollama', withoutApiKey: true, baseUrl: 'http://127.0.0.1:11434/' });
      expect(body).toMatchObject({ hasApiKey: false, apiKeyHint: null, baseUrl: 'http://127.0.0.1:11434' });
      const refused = await create({ provider: 'ai_vendor_a', label: 'Needs a key', apiKey: key });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('llm.encryption_disabled');
      expect(await db().llmConnection.count()).toBe(1);
    } finally {
      withEnv('ENCRYPTION_KEY', saved);
    }
  });

  describe('base URL through the network guard', () => {
    it.each([
      ['ai_vendor_a', 'http://169.254.169.254/latest/meta-data', 'blocked_address'],
      ['ai_vendor_a', 'http://10.0.0.1/v1', 'blocked_address'],
      ['ai_vendor_a', 'http://127.0.0.1:8080/v1', 'blocked_address'],
      ['ai_generic_compatible', 'http://192.168.0.5:8000/v1', 'blocked_address'],
      ['ai_local', 'http://10.0.0.1:11434', 'blocked_address'],
      ['ai_vendor_a', 'https://nowhere.invalid/v1', 'host_not_found'],
      ['ai_vendor_a', 'ftp://8.8.8.8/v1', 'unsupported_url'],
      ['ai_vendor_a', 'https://user:pw@8.8.8.8/v1', 'unsupported_url'],
    ])('%s %s: 400 llm.invalid_base_url (%s)', async (provider, baseUrl, reason) => {
      const response = await create({ provider, label: 'Guarded', apiKey: key, baseUrl });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'llm.invalid_base_url', details: { reason } });
      expect(JSON.stringify(response.body)).not.toContain('169.254');
    });

    it('lets ai_local, only, use the instance’s network when LLM_LOCAL_ALLOW_PRIVATE=1; metadata addresses never', async () => {
      withEnv('LLM_LOCAL_ALLOW_PRIVATE', '1');
      expect(await created({ provider: 'ai_local', label: 'Local', withoutApiKey: true, baseUrl: 'http://10.0.0.1:11434' })).toMatchObject({ baseUrl: 'http://10.0.0.1:11434' });
      for (const [provider, baseUrl] of [
        ['ai_vendor_a', 'http://10.0.0.1/v1'],
        ['ai_generic_compatible', 'http://10.0.0.1/v1'],
        ['ai_local', 'http://169.254.169.254/'],
        ['ai_local', 'http://[fd00:ec2::254]/'],
      ]) {
        const response = await create({ provider, label: `Refused ${provider} ${baseUrl}`, apiKey: key, baseUrl });
        expect(response.body.error?.code, `${provider} ${baseUrl}`).toBe('llm.invalid_base_url');
      }
    });

    it('requires a base URL for ai_generic_compatible', async () => {
      for (const body of [{}, { baseUrl: null }]) {
        const response = await create({ provider: 'ai_generic_compatible', label: 'Generic', withoutApiKey: true, ...body });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'llm.invalid_base_url', details: { reason: 'required' } });
      }
      expect(await created({ provider: 'ai_generic_compatible', label: 'Generic', withoutApiKey: true, baseUrl: 'https://8.8.8.8/v1/' })).toMatchObject({ baseUrl: 'https://8.8.8.8/v1' });
    });
  });

  describe('bounds', () => {
    it.each([
      ['an empty label', { label: '' }],
      ['a label of 81 characters', { label: 'l'.repeat(81) }],
      ['an empty key', { apiKey: '' }],
      ['a key of 513 characters', { apiKey: 'k'.repeat(513) }],
      ['a base URL of 2049 characters', { baseUrl: `https://8.8.8.8/${'p'.repeat(2049 - 'https://8.8.8.8/'.length)}` }],
      ['a base URL that is not a URL', { baseUrl: 'not a url' }],
      ['no model', { enabledModels: [] }],
      ['65 models', { enabledModels: Array.from({ length: 65 }, (_, index) => `m${index}`) }],
      ['a model of 129 characters', { enabledModels: ['m'.repeat(129)] }],
      ['an unknown provider', { provider: 'ai_vendor_z' }],
      ['a provider that is a prototype name', { provider: '__proto__' }],
      ['makeDefault as text', { makeDefault: 'yes' }],
    ])('answers 400 request.bad_request for %s', async (_label, override) => {
      const response = await create({ provider: 'ai_vendor_a', label: 'Bounded', apiKey: key, ...override });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    });

    it('never echoes a refused key in the error', async () => {
      const secret = `sk-${'s3cr3t'.repeat(90)}`;
      for (const body of [
        { provider: 'ai_vendor_a', label: 'Echo', apiKey: secret },
        { provider: 'ai_vendor_a', label: 'Echo', apiKey: secret.slice(0, 100), baseUrl: 'http://169.254.169.254/' },
        { provider: 'ai_local', label: 'Echo', apiKey: secret.slice(0, 100), withoutApiKey: true },
        { provider: 'ai_vendor_z', label: 'Echo', apiKey: secret.slice(0, 100) },
      ]) {
        const response = await create(body);
        expect(response.status).toBe(400);
        expect(JSON.stringify(response.body)).not.toContain('s3cr3ts3cr3t');
      }
    });

    it('accepts every bound at its limit', async () => {
      const baseUrl = `https://8.8.8.8/${'p'.repeat(2048 - 'https://8.8.8.8/'.length)}`;
      const enabledModels = Array.from({ length: 64 }, (_, index) => `${index}`.padEnd(128, 'm'));
      const body = await created({ provider: 'ai_vendor_a', label: 'l'.repeat(80), apiKey: 'k'.repeat(512), baseUrl, enabledModels });
      expect(body).toMatchObject({ label: 'l'.repeat(80), baseUrl, enabledModels, apiKeyHint: 'kkkk' });
    });
  });

  it('takes prototype names as plain values and ignores a __proto__ member of the body', async () => {
    for (const name of prototypeNames) {
      const body = await created({ provider: 'ai_vendor_a', label: name, apiKey: key, enabledModels: [name, 'constructor'] });
      expect(body).toMatchObject({ label: name, isDefault: false });
    }
    const raw = `{"provider":"ai_vendor_b","label":"raw","apiKey":"${key}","__proto__":{"isDefault":true,"makeDefault":true}}`;
    const response = await call('POST', adminPath, { cookie: admin.cookie, rawBody: raw, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(201);
    expect(response.body.isDefault).toBe(false);
  });

  it('makeDefault makes it the only default', async () => {
    const first = await created({ provider: 'ai_vendor_a', label: 'First', apiKey: key, makeDefault: true });
    const second = await created({ provider: 'ai_vendor_b', label: 'Second', apiKey: key, makeDefault: true });
    const rows = await db().llmConnection.findMany({ where: { isDefault: true } });
    expect(rows.map((row) => row.id)).toEqual([second.id]);
    expect(first.isDefault).toBe(true);
  });
});

describe('admin-only access', () => {
  it.each([
    ['GET', adminPath],
    ['POST', adminPath],
    ['PUT', `${adminPath}/00000000-0000-4000-8000-000000000000`],
    ['DELETE', `${adminPath}/00000000-0000-4000-8000-000000000000`],
    ['POST', `${adminPath}/00000000-0000-4000-8000-000000000000/default`],
    ['GET', '/api/v1/admin/llm/routing'],
    ['PUT', '/api/v1/admin/llm/routing'],
    ['GET', '/api/v1/admin/llm/prices'],
    ['PUT', '/api/v1/admin/llm/prices'],
    ['GET', '/api/v1/admin/llm/budgets'],
    ['PUT', '/api/v1/admin/llm/budgets'],
    ['GET', '/api/v1/admin/llm/usage'],
  ])('%s %s answers 403 auth.forbidden to a member', async (method, path) => {
    const response = await call(method, path, { cookie: member.cookie, body: method === 'GET' ? undefined : {} });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('auth.forbidden');
  });

  it('refuses an administrator’s key limited to admin:read on writes', async () => {
    const { secret } = await createApiKeyFor(admin, ['admin:read']);
    expect((await call('GET', adminPath, { key: secret })).status).toBe(200);
    const response = await call('POST', adminPath, { key: secret, body: { provider: 'ai_vendor_a', label: 'k', apiKey: key } });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'admin:write' } });
  });

  it('answers 401 without a credential', async () => {
    expect((await call('GET', adminPath)).status).toBe(401);
    expect((await call('GET', '/api/v1/llm-connections')).status).toBe(401);
  });
});

describe('PUT /api/v1/admin/llm/connections/{id}', () => {
  it('changes what is sent and keeps the key when apiKey is absent; audited without the key', async () => {
    const { id } = await created({ provider: 'ai_vendor_a', label: 'Before', apiKey: key, enabledModels: ['gpt-4.1'] });
    const sealedBefore = (await db().llmConnection.findUniqueOrThrow({ where: { id } })).apiKeyEnc;
    const response = await update(id, { label: 'After', enabledModels: null });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id, label: 'After', enabledModels: null, hasApiKey: true, apiKeyHint: '9XyZ', provider: 'ai_vendor_a' });
    expect((await db().llmConnection.findUniqueOrThrow({ where: { id } })).apiKeyEnc).toBe(sealedBefore);

    const replaced = await update(id, { apiKey: 'sk-another-secret-key-ABCD' });
    expect(replaced.body).toMatchObject({ label: 'After', apiKeyHint: 'ABCD' });
    const row = await db().llmConnection.findUniqueOrThrow({ where: { id } });
    expect(open(row.apiKeyEnc!, `llm-connection:${id}`)).toBe('sk-another-secret-key-ABCD');

    const entries = await db().auditEntry.findMany({ where: { action: 'llm.connection_updated', targetId: id } });
    expect(entries.map((entry) => entry.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'After', changed: ['label', 'enabledModels'], keyReplaced: false }),
        expect.objectContaining({ changed: [], keyReplaced: true }),
      ]),
    );
    expect(entries).toHaveLength(2);
    expect(JSON.stringify(entries)).not.toContain('ABCD');
    expect(JSON.stringify(entries)).not.toContain(key);
  });

  it('answers 404 llm.connection_not_found for an unknown id', async () => {
    const response = await update('00000000-0000-4000-8000-000000000000', { label: 'x' });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('llm.connection_not_found');
  });

  it('answers 409 llm.connection_label_taken for another connection’s label, and accepts its own', async () => {
    await created({ provider: 'ai_vendor_a', label: 'Taken', apiKey: key });
    const { id } = await created({ provider: 'ai_vendor_b', label: 'Mine', apiKey: key });
    expect((await update(id, { label: 'taken' })).body.error.code).toBe('llm.connection_label_taken');
    expect((await update(id, { label: 'MINE' })).body.label).toBe('MINE');
  });

  it('removes the key of a local connection with withoutApiKey, never a vendor’s', async () => {
    const local = await created({ provider: 'ai_local', label: 'Local', apiKey: key });
    const removed = await update(local.id, { withoutApiKey: true });
    expect(removed.body).toMatchObject({ hasApiKey: false, apiKeyHint: null });
    expect((await db().llmConnection.findUniqueOrThrow({ where: { id: local.id } })).apiKeyEnc).toBeNull();
    const needsKey = await update(local.id, { withoutApiKey: false });
    expect(needsKey.body.error).toMatchObject({ code: 'llm.api_key_required', details: { reason: 'missing' } });

    const vendor = await created({ provider: 'ai_vendor_d', label: 'Vendor', apiKey: key });
    const refused = await update(vendor.id, { withoutApiKey: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'llm.api_key_required', details: { reason: 'provider_needs_key' } });
  });

  it('asks for the key again when the base URL moves elsewhere', async () => {
    const { id } = await created({ provider: 'ai_vendor_a', label: 'Gateway', apiKey: key, baseUrl: 'https://8.8.8.8/v1' });
    expect((await update(id, { baseUrl: 'https://8.8.8.8/v2' })).status).toBe(200);
    const moved = await update(id, { baseUrl: 'https://1.1.1.1/v1' });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toMatchObject({ code: 'llm.api_key_required', details: { reason: 'base_url_changed' } });
    expect((await update(id, { baseUrl: 'https://1.1.1.1/v1', apiKey: 'sk-new-key-for-the-gateway' })).body.baseUrl).toBe('https://1.1.1.1/v1');
    expect((await update(id, { baseUrl: null })).body.baseUrl).toBeNull();
  });

  it('checks the base URL as on creation', async () => {
    const generic = await created({ provider: 'ai_generic_compatible', label: 'Generic', withoutApiKey: true, baseUrl: 'https://8.8.8.8/v1' });
    expect((await update(generic.id, { baseUrl: null })).body.error).toMatchObject({ code: 'llm.invalid_base_url', details: { reason: 'required' } });
    expect((await update(generic.id, { baseUrl: 'http://169.254.169.254/' })).body.error).toMatchObject({ code: 'llm.invalid_base_url', details: { reason: 'blocked_address' } });
    expect((await update(generic.id, { baseUrl: 'http://10.0.0.1/' })).body.error.code).toBe('llm.invalid_base_url');
  });

  it('answers 409 llm.encryption_disabled for a new key without an instance key', async () => {
    const { id } = await created({ provider: 'ai_vendor_a', label: 'Enc', apiKey: key });
    const saved = process.env.ENCRYPTION_KEY;
    withEnv('ENCRYPTION_KEY', undefined);
    try {
      expect((await update(id, { apiKey: 'sk-replacement-key' })).body.error.code).toBe('llm.encryption_disabled');
      expect((await update(id, { label: 'Renamed' })).status).toBe(200);
    } finally {
      withEnv('ENCRYPTION_KEY', saved);
    }
  });

  it.each([
    ['a label of 81 characters', { label: 'l'.repeat(81) }],
    ['a key of 513 characters', { apiKey: 'k'.repeat(513) }],
    ['65 models', { enabledModels: Array.from({ length: 65 }, (_, index) => `m${index}`) }],
    ['withoutApiKey as text', { withoutApiKey: 'no' }],
  ])('answers 400 for %s', async (_label, body) => {
    const { id } = await created({ provider: 'ai_vendor_a', label: 'Bounds', apiKey: key });
    const response = await update(id, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});

describe('DELETE /api/v1/admin/llm/connections/{id} and POST …/{id}/default', () => {
  it('deletes the connection with its routing entries; audited', async () => {
    const doomed = await created({ provider: 'ai_vendor_a', label: 'Doomed', apiKey: key, makeDefault: true });
    const kept = await created({ provider: 'ai_vendor_b', label: 'Kept', apiKey: key });
    await db().llmRouting.createMany({
      data: [
        { purpose: 'classify', connectionId: doomed.id, model: 'gpt-4.1' },
        { purpose: 'compose', connectionId: kept.id, model: 'claude-haiku-4-5' },
      ],
    });
    const response = await call('DELETE', `${adminPath}/${doomed.id}`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: doomed.id, deleted: true });
    expect((await db().llmRouting.findMany()).map((entry) => entry.purpose)).toEqual(['compose']);
    expect(await db().llmConnection.count({ where: { isDefault: true } })).toBe(0);
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'llm.connection_deleted' } });
    expect(entry.details).toMatchObject({ label: 'Doomed', wasDefault: true, routingRemoved: ['classify'] });

    const again = await call('DELETE', `${adminPath}/${doomed.id}`, { cookie: admin.cookie });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('llm.connection_not_found');
  });

  it('makes a connection the only default; again changes nothing; unknown is 404', async () => {
    const first = await created({ provider: 'ai_vendor_a', label: 'One', apiKey: key, makeDefault: true });
    const second = await created({ provider: 'ai_vendor_b', label: 'Two', apiKey: key });
    const response = await call('POST', `${adminPath}/${second.id}/default`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: second.id, isDefault: true, hasApiKey: true });
    expect((await call('POST', `${adminPath}/${second.id}/default`, { cookie: admin.cookie })).body.isDefault).toBe(true);
    const defaults = await db().llmConnection.findMany({ where: { isDefault: true } });
    expect(defaults.map((row) => row.id)).toEqual([second.id]);
    expect(await db().auditEntry.findFirst({ where: { action: 'llm.default_changed' } })).toMatchObject({ details: { previousDefaultId: first.id } });
    expect(await db().auditEntry.count({ where: { action: 'llm.default_changed' } })).toBe(1);

    const unknown = await call('POST', `${adminPath}/00000000-0000-4000-8000-000000000000/default`, { cookie: admin.cookie });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('llm.connection_not_found');
  });

  it('refuses a second default row at the database', async () => {
    await created({ provider: 'ai_vendor_a', label: 'D1', apiKey: key, makeDefault: true });
    const other = await created({ provider: 'ai_vendor_b', label: 'D2', apiKey: key });
    await expect(db().llmConnection.update({ where: { id: other.id }, data: { isDefault: true } })).rejects.toThrow();
  });
});

describe('member routes', () => {
  it('list the member form in configuration order, and the models of a connection', async () => {
    const a = await created({ provider: 'ai_vendor_a', label: 'A', apiKey: key });
    const b = await created({ provider: 'ai_vendor_b', label: 'B', apiKey: key, enabledModels: ['claude-haiku-4-5'], makeDefault: true });
    const generic = await created({ provider: 'ai_generic_compatible', label: 'G', withoutApiKey: true, baseUrl: 'https://8.8.8.8/v1' });

    const list = await call('GET', '/api/v1/llm-connections', { cookie: member.cookie });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      connections: [
        { id: a.id, provider: 'ai_vendor_a', label: 'A', isDefault: false },
        { id: b.id, provider: 'ai_vendor_b', label: 'B', isDefault: true },
        { id: generic.id, provider: 'ai_generic_compatible', label: 'G', isDefault: false },
      ],
    });

    const restricted = await call('GET', `/api/v1/llm-connections/${b.id}/models`, { cookie: member.cookie });
    expect(restricted.body).toEqual({ connectionId: b.id, provider: 'ai_vendor_b', models: ['claude-haiku-4-5'], restricted: true });
    const suggested = await call('GET', `/api/v1/llm-connections/${a.id}/models`, { cookie: member.cookie });
    expect(suggested.body).toMatchObject({ connectionId: a.id, restricted: false, models: expect.arrayContaining(['gpt-4.1-mini']) });
    expect((await call('GET', `/api/v1/llm-connections/${generic.id}/models`, { cookie: member.cookie })).body).toMatchObject({ models: [], restricted: false });

    const unknown = await call('GET', '/api/v1/llm-connections/00000000-0000-4000-8000-000000000000/models', { cookie: member.cookie });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('llm.connection_not_found');
  });

  it('need connections:read on a key', async () => {
    const reader = await createApiKeyFor(member, ['connections:read']);
    expect((await call('GET', '/api/v1/llm-connections', { key: reader.secret })).status).toBe(200);
    expect((await call('GET', '/api/v1/llm-defaults', { key: reader.secret })).status).toBe(200);
    const other = await createApiKeyFor(member, ['tables:read']);
    const refused = await call('GET', '/api/v1/llm-defaults', { key: other.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'connections:read' } });
  });
});

describe('key rotation', () => {
  it('re-seals connection keys under the new instance key and leaves keyless connections alone', async () => {
    const saved = { key: process.env.ENCRYPTION_KEY, previous: process.env.ENCRYPTION_KEYS_PREVIOUS };
    const oldKey = 'old-llm-instance-key-'.padEnd(40, 'x');
    const newKey = 'new-llm-instance-key-'.padEnd(40, 'y');
    try {
      withEnv('ENCRYPTION_KEY', oldKey);
      const { id } = await created({ provider: 'ai_vendor_a', label: 'Rotated', apiKey: key });
      await created({ provider: 'ai_local', label: 'Keyless', withoutApiKey: true });
      withEnv('ENCRYPTION_KEYS_PREVIOUS', oldKey);
      withEnv('ENCRYPTION_KEY', newKey);
      expect((await resealSecrets()).unreadable).toBe(0);
      withEnv('ENCRYPTION_KEYS_PREVIOUS', undefined);
      const row = await db().llmConnection.findUniqueOrThrow({ where: { id } });
      expect(row.apiKeyEnc!.split(':')[1]).toBe(deriveKey(newKey).id);
      expect(open(row.apiKeyEnc!, `llm-connection:${id}`)).toBe(key);
      expect((await db().llmConnection.findFirstOrThrow({ where: { label: 'Keyless' } })).apiKeyEnc).toBeNull();
    } finally {
      withEnv('ENCRYPTION_KEY', saved.key);
      withEnv('ENCRYPTION_KEYS_PREVIOUS', saved.previous);
    }
  });
});
