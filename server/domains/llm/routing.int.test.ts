import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { isRefusal } from './resolve';
import { resolveForPurpose } from './routing';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
const purposes = ['classify', 'compose', 'extract', 'general', 'analyzer', 'assistant'] as const;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

beforeEach(async () => {
  await db().llmConnection.deleteMany();
  await db().auditEntry.deleteMany({ where: { action: { startsWith: 'llm.' } } });
});

async function connection(body: Record<string, unknown>): Promise<string> {
  const response = await call('POST', '/api/v1/admin/llm/connections', { cookie: admin.cookie, body: { apiKey: 'sk-routing-test-key', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

const allNull = Object.fromEntries(purposes.map((purpose) => [purpose, null]));

function putRouting(routing: unknown) {
  return call('PUT', '/api/v1/admin/llm/routing', { cookie: admin.cookie, body: { routing } });
}

describe('routing fallbacks: purpose → instance default → configuration order', () => {
  it('answers null everywhere when nothing is configured', async () => {
    expect((await call('GET', '/api/v1/llm-defaults', { cookie: member.cookie })).body).toEqual({ defaults: allNull });
    expect((await call('GET', '/api/v1/admin/llm/routing', { cookie: admin.cookie })).body).toEqual({ routing: allNull, effective: allNull });
    expect(await resolveForPurpose('classify')).toBeNull();
  });

  it('follows each rule in turn, with its source', async () => {
    // A generic connection without models cannot serve unasked; the vendor after it can.
    await connection({ provider: 'ai_generic_compatible', label: 'Generic', apiKey: undefined, withoutApiKey: true, baseUrl: 'https://8.8.8.8/v1' });
    const first = await connection({ provider: 'ai_vendor_a', label: 'First' });
    let effective = (await call('GET', '/api/v1/admin/llm/routing', { cookie: admin.cookie })).body.effective;
    expect(effective.classify).toEqual({ connectionId: first, provider: 'ai_vendor_a', model: 'gpt-4.1-mini', source: 'configurationOrder' });

    const fallback = await connection({ provider: 'ai_vendor_b', label: 'Default', enabledModels: ['claude-haiku-4-5'], makeDefault: true });
    effective = (await call('GET', '/api/v1/admin/llm/routing', { cookie: admin.cookie })).body.effective;
    expect(effective.classify).toEqual({ connectionId: fallback, provider: 'ai_vendor_b', model: 'claude-haiku-4-5', source: 'instanceDefault' });

    const routed = await connection({ provider: 'ai_vendor_c', label: 'Routed' });
    const put = await putRouting({ classify: { connectionId: routed, model: 'gemini-2.5-pro' } });
    expect(put.status).toBe(200);
    expect(put.body.routing).toEqual({ ...allNull, classify: { connectionId: routed, model: 'gemini-2.5-pro' } });
    expect(put.body.effective.classify).toEqual({ connectionId: routed, provider: 'ai_vendor_c', model: 'gemini-2.5-pro', source: 'purpose' });
    expect(put.body.effective.compose).toMatchObject({ connectionId: fallback, source: 'instanceDefault' });

    const defaults = await call('GET', '/api/v1/llm-defaults', { cookie: member.cookie });
    expect(defaults.status).toBe(200);
    expect(defaults.body.defaults).toEqual({
      classify: { provider: 'ai_vendor_c', model: 'gemini-2.5-pro' },
      compose: { provider: 'ai_vendor_b', model: 'claude-haiku-4-5' },
      extract: { provider: 'ai_vendor_b', model: 'claude-haiku-4-5' },
      general: { provider: 'ai_vendor_b', model: 'claude-haiku-4-5' },
      analyzer: { provider: 'ai_vendor_b', model: 'claude-haiku-4-5' },
      assistant: { provider: 'ai_vendor_b', model: 'claude-haiku-4-5' },
    });

    // Deleting the routed connection and then the default walks back down the rules.
    expect((await call('DELETE', `/api/v1/admin/llm/connections/${routed}`, { cookie: admin.cookie })).status).toBe(200);
    expect(await resolveForPurpose('classify')).toMatchObject({ connection: { id: fallback }, source: 'instanceDefault' });
    expect((await call('DELETE', `/api/v1/admin/llm/connections/${fallback}`, { cookie: admin.cookie })).status).toBe(200);
    expect(await resolveForPurpose('classify')).toMatchObject({ connection: { id: first }, model: 'gpt-4.1-mini', source: 'configurationOrder' });
  });

  it('refuses a requested model outside enabledModels, for the assistant and the nodes to answer', async () => {
    const restricted = await connection({ provider: 'ai_vendor_b', label: 'Restricted', enabledModels: ['claude-haiku-4-5'], makeDefault: true });
    expect(await resolveForPurpose('assistant', { model: 'claude-haiku-4-5' })).toMatchObject({ connection: { id: restricted }, model: 'claude-haiku-4-5' });
    const refused = await resolveForPurpose('assistant', { model: 'claude-opus-4-1', connectionId: restricted });
    expect(isRefusal(refused) && refused.refused).toBe('model_not_allowed');
  });
});

describe('PUT /api/v1/admin/llm/routing', () => {
  it('keeps absent purposes, removes null ones; audited', async () => {
    const a = await connection({ provider: 'ai_vendor_a', label: 'A' });
    await putRouting({ classify: { connectionId: a, model: 'gpt-4.1' }, compose: { connectionId: a, model: 'o3' } });
    const response = await putRouting({ compose: null });
    expect(response.body.routing).toEqual({ ...allNull, classify: { connectionId: a, model: 'gpt-4.1' } });
    expect((await call('GET', '/api/v1/admin/llm/routing', { cookie: admin.cookie })).body.routing).toEqual(response.body.routing);
    const entries = await db().auditEntry.findMany({ where: { action: 'llm.routing_updated' } });
    expect(entries.map((entry) => entry.details)).toEqual(expect.arrayContaining([{ changes: { compose: null } }]));
  });

  it('answers 404 llm.connection_not_found for an unknown connection, changing nothing', async () => {
    const a = await connection({ provider: 'ai_vendor_a', label: 'A' });
    const response = await putRouting({ classify: { connectionId: a, model: 'gpt-4.1' }, general: { connectionId: '00000000-0000-4000-8000-000000000000', model: 'x' } });
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'llm.connection_not_found', details: { purpose: 'general' } });
    expect(await db().llmRouting.count()).toBe(0);
  });

  it('answers 400 llm.model_not_allowed for a model outside enabledModels', async () => {
    const b = await connection({ provider: 'ai_vendor_b', label: 'B', enabledModels: ['claude-haiku-4-5'] });
    const response = await putRouting({ assistant: { connectionId: b, model: 'claude-opus-4-1' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'llm.model_not_allowed', details: { purpose: 'assistant', model: 'claude-opus-4-1' } });
  });

  it.each([
    ['an unknown purpose', { summarize: null }],
    ...['__proto__', 'constructor', 'toString'].map((name) => [`the prototype name ${name}`, JSON.parse(`{"${name}": null}`)] as [string, unknown]),
    ['a model of 129 characters', { classify: { connectionId: '00000000-0000-4000-8000-000000000000', model: 'm'.repeat(129) } }],
    ['an empty model', { classify: { connectionId: '00000000-0000-4000-8000-000000000000', model: '' } }],
    ['a connection id that is not a uuid', { classify: { connectionId: 'nope', model: 'm' } }],
  ])('answers 400 request.bad_request for %s', async (_label, routing) => {
    const response = await putRouting(routing);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});
