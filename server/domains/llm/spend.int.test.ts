import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/app-error';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { checkBudget, enforceBudget, recordUsage } from './usage';

await useTestDatabase();

let admin: TestMember;
let alice: TestMember;
let bob: TestMember;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  alice = await createMember({ name: 'Alice' });
  bob = await createMember({ name: 'Bob' });
});

beforeEach(async () => {
  await db().llmUsage.deleteMany();
  await db().llmPrice.deleteMany();
  await db().llmBudget.deleteMany();
});

const prices = [
  { provider: 'ai_vendor_a', model: 'gpt-4.1-mini', inputUsdPerMillion: 0.4, outputUsdPerMillion: 1.6 },
  { provider: 'ai_vendor_a', model: 'o4-mini', inputUsdPerMillion: 1.1, outputUsdPerMillion: 4.4, reasoningUsdPerMillion: 8 },
  { provider: 'ai_local', model: '*', inputUsdPerMillion: 0, outputUsdPerMillion: 0, reasoningUsdPerMillion: null },
];

function putPrices(body: unknown, who: TestMember = admin) {
  return call('PUT', '/api/v1/admin/llm/prices', { cookie: who.cookie, body });
}

function usage(memberId: string | null, overrides: Partial<Parameters<typeof recordUsage>[0]> = {}) {
  return recordUsage({ connectionId: null, provider: 'ai_vendor_a', model: 'gpt-4.1-mini', purpose: 'classify', memberId, inputTokens: 1_000_000, outputTokens: 0, reasoningTokens: 0, ...overrides });
}

describe('prices', () => {
  it('replaces the whole table and reads it back; audited', async () => {
    const response = await putPrices({ prices });
    expect(response.status).toBe(200);
    expect(response.body.prices).toEqual([
      { provider: 'ai_vendor_a', model: 'gpt-4.1-mini', inputUsdPerMillion: 0.4, outputUsdPerMillion: 1.6, reasoningUsdPerMillion: null, updatedAt: expect.stringMatching(/Z$/) },
      { provider: 'ai_vendor_a', model: 'o4-mini', inputUsdPerMillion: 1.1, outputUsdPerMillion: 4.4, reasoningUsdPerMillion: 8, updatedAt: expect.any(String) },
      { provider: 'ai_local', model: '*', inputUsdPerMillion: 0, outputUsdPerMillion: 0, reasoningUsdPerMillion: null, updatedAt: expect.any(String) },
    ]);
    expect((await call('GET', '/api/v1/admin/llm/prices', { cookie: admin.cookie })).body).toEqual(response.body);
    expect((await putPrices({ prices: [prices[0]] })).body.prices).toHaveLength(1);
    expect(await db().auditEntry.count({ where: { action: 'llm.prices_updated' } })).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['the same provider and model twice', { prices: [prices[0], prices[0]] }],
    ['a negative price', { prices: [{ ...prices[0], inputUsdPerMillion: -1 }] }],
    ['a price above 1,000,000', { prices: [{ ...prices[0], outputUsdPerMillion: 1_000_001 }] }],
    ['an unknown provider', { prices: [{ ...prices[0], provider: 'ai_vendor_z' }] }],
    ['a model of 129 characters', { prices: [{ ...prices[0], model: 'm'.repeat(129) }] }],
    ['1001 entries', { prices: Array.from({ length: 1001 }, (_, index) => ({ ...prices[0], model: `m${index}` })) }],
    ['no table', {}],
  ])('answers 400 request.bad_request for %s', async (_label, body) => {
    const response = await putPrices(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('takes prototype names as model names', async () => {
    const response = await putPrices({ prices: ['__proto__', 'constructor', 'toString'].map((model) => ({ ...prices[0], model })) });
    expect(response.status).toBe(200);
    expect(response.body.prices.map((price: { model: string }) => price.model).sort()).toEqual(['__proto__', 'constructor', 'toString']);
  });
});

describe('usage records', () => {
  it('cost the price of the day, the provider-wide price, or null without a price', async () => {
    await putPrices({ prices });
    expect((await usage(alice.id, { inputTokens: 1_000_000, outputTokens: 500_000 })).costUsd).toBeCloseTo(1.2, 9);
    expect((await usage(alice.id, { model: 'o4-mini', inputTokens: 0, outputTokens: 0, reasoningTokens: 1_000_000 })).costUsd).toBeCloseTo(8, 9);
    expect((await usage(alice.id, { provider: 'ai_local', model: 'llama3.2' })).costUsd).toBe(0);
    expect((await usage(alice.id, { model: 'gpt-unknown' })).costUsd).toBeNull();
    // Nonsense counts are stored as zero rather than refused: the call happened.
    const odd = await usage(alice.id, { inputTokens: -5, outputTokens: Number.NaN, reasoningTokens: 1.7 });
    expect(await db().llmUsage.findUniqueOrThrow({ where: { id: odd.id } })).toMatchObject({ inputTokens: 0, outputTokens: 0, reasoningTokens: 1 });
  });

  it('are summarised by month, member, purpose and model', async () => {
    await putPrices({ prices });
    await usage(alice.id, { purpose: 'classify', inputTokens: 1_000_000 });
    await usage(alice.id, { purpose: 'compose', inputTokens: 2_000_000, outputTokens: 10 });
    await usage(bob.id, { purpose: 'classify', model: 'gpt-unknown', inputTokens: 5 });
    // A call on Bob's own key: in the figures, and told apart as paid by his account.
    await usage(bob.id, { purpose: 'general', inputTokens: 1_000_000, connectionId: null, credentialId: randomUUID() });
    const old = await usage(bob.id, { inputTokens: 9_000_000 });
    await db().llmUsage.update({ where: { id: old.id }, data: { createdAt: new Date('2024-02-10T00:00:00Z') } });

    const response = await call('GET', '/api/v1/admin/llm/usage', { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.month).toBe(new Date().toISOString().slice(0, 7));
    expect(body.totals).toEqual({ calls: 4, inputTokens: 4_000_005, outputTokens: 10, reasoningTokens: 0, costUsd: expect.closeTo(1.600016, 9), unpricedCalls: 1, ownKeysCostUsd: expect.closeTo(0.4, 9) });
    expect(body.byMember).toEqual([
      { memberId: alice.id, name: 'Alice', calls: 2, inputTokens: 3_000_000, outputTokens: 10, reasoningTokens: 0, costUsd: expect.closeTo(1.200016, 9), unpricedCalls: 0, ownKeysCostUsd: 0 },
      { memberId: bob.id, name: 'Bob', calls: 2, inputTokens: 1_000_005, outputTokens: 0, reasoningTokens: 0, costUsd: expect.closeTo(0.4, 9), unpricedCalls: 1, ownKeysCostUsd: expect.closeTo(0.4, 9) },
    ]);
    // The budgets count what the instance paid only.
    expect((await call('GET', '/api/v1/admin/llm/budgets', { cookie: admin.cookie })).body.instanceSpentUsd).toBeCloseTo(1.200016, 9);
    expect(body.byPurpose.map((row: { purpose: string; calls: number }) => [row.purpose, row.calls])).toEqual([
      ['compose', 1],
      ['classify', 2],
      ['general', 1],
    ]);
    expect(body.byModel.map((row: { model: string; calls: number }) => [row.model, row.calls])).toEqual([
      ['gpt-4.1-mini', 3],
      ['gpt-unknown', 1],
    ]);

    const february = await call('GET', '/api/v1/admin/llm/usage?month=2024-02', { cookie: admin.cookie });
    expect(february.body).toMatchObject({ month: '2024-02', from: '2024-02-01T00:00:00.000Z', to: '2024-03-01T00:00:00.000Z', totals: { calls: 1, inputTokens: 9_000_000 } });
    expect(february.body.byMember).toEqual([expect.objectContaining({ memberId: bob.id })]);

    const empty = await call('GET', '/api/v1/admin/llm/usage?month=2025-01', { cookie: admin.cookie });
    expect(empty.body).toMatchObject({ totals: { calls: 0, costUsd: 0 }, byMember: [], byPurpose: [], byModel: [] });
  });

  it.each(['2024-13', '2024-1', '0000-01', '24-01', 'constructor'])('answers 400 for the month %s', async (month) => {
    const response = await call('GET', `/api/v1/admin/llm/usage?month=${month}`, { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});

describe('budgets', () => {
  it('start empty, are set, kept when absent, removed with null; audited', async () => {
    expect((await call('GET', '/api/v1/admin/llm/budgets', { cookie: admin.cookie })).body).toEqual({
      instanceMonthlyUsd: null,
      memberMonthlyUsd: null,
      month: new Date().toISOString().slice(0, 7),
      instanceSpentUsd: 0,
      updatedAt: null,
    });
    const set = await call('PUT', '/api/v1/admin/llm/budgets', { cookie: admin.cookie, body: { instanceMonthlyUsd: 100, memberMonthlyUsd: 2.5 } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ instanceMonthlyUsd: 100, memberMonthlyUsd: 2.5, updatedAt: expect.any(String) });
    const kept = await call('PUT', '/api/v1/admin/llm/budgets', { cookie: admin.cookie, body: { memberMonthlyUsd: null } });
    expect(kept.body).toMatchObject({ instanceMonthlyUsd: 100, memberMonthlyUsd: null });
    expect(await db().auditEntry.count({ where: { action: 'llm.budgets_updated' } })).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['a negative budget', { instanceMonthlyUsd: -1 }],
    ['a budget above 1e9', { memberMonthlyUsd: 1_000_000_001 }],
    ['a budget as text', { memberMonthlyUsd: '10' }],
  ])('answers 400 for %s', async (_label, body) => {
    const response = await call('PUT', '/api/v1/admin/llm/budgets', { cookie: admin.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('refuse a member’s call beyond the member budget, and everybody’s beyond the instance budget', async () => {
    await putPrices({ prices });
    expect(await checkBudget(alice.id)).toEqual({ ok: true });
    await call('PUT', '/api/v1/admin/llm/budgets', { cookie: admin.cookie, body: { memberMonthlyUsd: 1, instanceMonthlyUsd: 1.5 } });
    await usage(alice.id, { inputTokens: 1_000_000 }); // 0.40
    expect(await checkBudget(alice.id)).toEqual({ ok: true });
    expect(await checkBudget(alice.id, 0.7)).toMatchObject({ ok: false, scope: 'member', limitUsd: 1 });
    await usage(alice.id, { inputTokens: 1_500_000 }); // 1.00 in all
    expect(await checkBudget(alice.id)).toMatchObject({ ok: false, code: 'llm.budget_exceeded', scope: 'member', spentUsd: expect.closeTo(1, 9) });
    expect(await checkBudget(bob.id)).toEqual({ ok: true });
    // Last month's spending does not count.
    const old = await usage(bob.id, { inputTokens: 50_000_000 });
    await db().llmUsage.update({ where: { id: old.id }, data: { createdAt: new Date('2024-02-10T00:00:00Z') } });
    expect(await checkBudget(bob.id)).toEqual({ ok: true });
    await usage(bob.id, { inputTokens: 1_250_000 }); // instance: 1.50
    expect(await checkBudget(bob.id)).toMatchObject({ ok: false, scope: 'instance', limitUsd: 1.5 });

    const error = await enforceBudget(bob.id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'llm.budget_exceeded', status: 402, details: { scope: 'instance', limitUsd: 1.5 } });
    expect((await call('GET', '/api/v1/admin/llm/budgets', { cookie: admin.cookie })).body.instanceSpentUsd).toBeCloseTo(1.5, 9);
  });
});
