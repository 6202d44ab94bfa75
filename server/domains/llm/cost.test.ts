import { describe, expect, it } from 'vitest';
import { budgetVerdict, costOf, monthOf, monthWindow, priceOf, type PriceRow } from './cost';

const prices: PriceRow[] = [
  { provider: 'ai_vendor_a', model: 'gpt-4.1-mini', inputUsdPerMillion: 0.4, outputUsdPerMillion: 1.6, reasoningUsdPerMillion: null },
  { provider: 'ai_vendor_a', model: 'o4-mini', inputUsdPerMillion: 1.1, outputUsdPerMillion: 4.4, reasoningUsdPerMillion: 8 },
  { provider: 'ai_local', model: '*', inputUsdPerMillion: 0, outputUsdPerMillion: 0, reasoningUsdPerMillion: null },
];

describe('priceOf', () => {
  it.each([
    ['ai_vendor_a', 'gpt-4.1-mini', 'gpt-4.1-mini'],
    ['ai_vendor_a', 'gpt-4.1', null],
    ['ai_local', 'llama3.2', '*'],
    ['ai_vendor_b', 'gpt-4.1-mini', null],
    ['ai_vendor_a', '__proto__', null],
  ])('%s %s → %s', (provider, model, expected) => {
    expect(priceOf(prices, provider, model)?.model ?? null).toBe(expected);
  });
});

describe('costOf', () => {
  it.each([
    ['input and output', { inputTokens: 1_000_000, outputTokens: 500_000, reasoningTokens: 0 }, prices[0], 0.4 + 0.8],
    ['reasoning at the output price by default', { inputTokens: 0, outputTokens: 0, reasoningTokens: 1_000_000 }, prices[0], 1.6],
    ['reasoning at its own price', { inputTokens: 1000, outputTokens: 1000, reasoningTokens: 1000 }, prices[1], (1.1 + 4.4 + 8) / 1000],
    ['a free local model', { inputTokens: 123, outputTokens: 456, reasoningTokens: 0 }, prices[2], 0],
    ['no price', { inputTokens: 10, outputTokens: 10, reasoningTokens: 0 }, null, null],
  ])('%s', (_label, tokens, price, expected) => {
    const cost = costOf(tokens, price);
    if (expected === null) expect(cost).toBeNull();
    else expect(cost).toBeCloseTo(expected, 9);
  });

  it('rounds away float dust', () => {
    expect(costOf({ inputTokens: 1, outputTokens: 0, reasoningTokens: 0 }, { ...prices[0], inputUsdPerMillion: 0.3 })).toBe(0.0000003);
  });
});

describe('budgetVerdict', () => {
  const none = { instanceMonthlyUsd: null, memberMonthlyUsd: null };
  it.each([
    ['no budget', none, 1000, 1000, undefined, true],
    ['under the member budget', { ...none, memberMonthlyUsd: 10 }, 50, 9.99, undefined, true],
    ['at the member budget', { ...none, memberMonthlyUsd: 10 }, 50, 10, undefined, false],
    ['an estimate that would cross it', { ...none, memberMonthlyUsd: 10 }, 50, 9, 2, false],
    ['an estimate that fits', { ...none, memberMonthlyUsd: 10 }, 50, 9, 1, true],
    ['a budget of zero', { ...none, instanceMonthlyUsd: 0 }, 0, 0, undefined, false],
    ['the instance budget binds every member', { instanceMonthlyUsd: 100, memberMonthlyUsd: 10 }, 100, 0, undefined, false],
    ['a nonsense estimate counts as none', { ...none, memberMonthlyUsd: 10 }, 0, 5, Number.NaN, true],
  ])('%s', (_label, budgets, instanceUsd, memberUsd, estimate, ok) => {
    expect(budgetVerdict(budgets, { instanceUsd, memberUsd }, estimate).ok).toBe(ok);
  });

  it('names the budget that refused', () => {
    expect(budgetVerdict({ instanceMonthlyUsd: 100, memberMonthlyUsd: 10 }, { instanceUsd: 20, memberUsd: 10 })).toEqual({
      ok: false,
      code: 'llm.budget_exceeded',
      scope: 'member',
      limitUsd: 10,
      spentUsd: 10,
    });
  });
});

describe('months', () => {
  it('are UTC calendar months', () => {
    expect(monthOf(new Date('2026-12-31T23:59:59.999Z'))).toEqual({ month: '2026-12', from: new Date('2026-12-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') });
    expect(monthWindow('2024-02')).toEqual({ month: '2024-02', from: new Date('2024-02-01T00:00:00Z'), to: new Date('2024-03-01T00:00:00Z') });
  });
});
