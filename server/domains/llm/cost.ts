/**
 * Prices, costs, budget verdicts and calendar months: pure, so the service and the AI nodes share
 * one reading of them.
 *
 * - A price is in USD per million tokens, per provider and model; the model `*` prices every other
 *   model of its provider (an `ai_local` runtime at 0, say). Reasoning tokens cost the reasoning
 *   price, else the output price.
 * - Token counts are disjoint: `outputTokens` does not include `reasoningTokens`.
 * - A cost is null when no price is known (it then counts as 0 against budgets: an unknown cost
 *   cannot be refused after the fact, and refusing every unpriced call would block local models).
 * - Budgets are hard and monthly (calendar month, UTC): a call is refused when what was spent this
 *   month, plus the call's estimate when one is given, goes beyond a budget; a budget of 0 refuses
 *   every call.
 */

export interface PriceRow {
  provider: string;
  model: string;
  inputUsdPerMillion: number;
  outputUsdPerMillion: number;
  reasoningUsdPerMillion: number | null;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

export const anyModel = '*';

/** The price of a model: its own row, else its provider's `*` row, else null. */
export function priceOf<P extends PriceRow>(prices: readonly P[], provider: string, model: string): P | null {
  return prices.find((row) => row.provider === provider && row.model === model) ?? prices.find((row) => row.provider === provider && row.model === anyModel) ?? null;
}

/** What a call cost in USD, or null without a price. Rounded to 1e-9 USD (no float dust in sums). */
export function costOf(tokens: TokenCounts, price: PriceRow | null): number | null {
  if (!price) return null;
  const reasoning = price.reasoningUsdPerMillion ?? price.outputUsdPerMillion;
  const micro = tokens.inputTokens * price.inputUsdPerMillion + tokens.outputTokens * price.outputUsdPerMillion + tokens.reasoningTokens * reasoning;
  return Math.round((micro / 1_000_000) * 1e9) / 1e9;
}

export interface Budgets {
  instanceMonthlyUsd: number | null;
  memberMonthlyUsd: number | null;
}

export type BudgetVerdict =
  | { ok: true }
  | { ok: false; code: 'llm.budget_exceeded'; scope: 'instance' | 'member'; limitUsd: number; spentUsd: number };

/** Whether a call may run: the instance budget first (it binds everybody), then the member's. */
export function budgetVerdict(budgets: Budgets, spent: { instanceUsd: number; memberUsd: number }, estimateUsd = 0): BudgetVerdict {
  const estimate = Number.isFinite(estimateUsd) && estimateUsd > 0 ? estimateUsd : 0;
  const checks = [
    { scope: 'instance' as const, limit: budgets.instanceMonthlyUsd, spentUsd: spent.instanceUsd },
    { scope: 'member' as const, limit: budgets.memberMonthlyUsd, spentUsd: spent.memberUsd },
  ];
  for (const { scope, limit, spentUsd } of checks) {
    if (limit === null) continue;
    // At the limit nothing more may be spent; below it, a call whose estimate would cross it is refused too.
    if (spentUsd >= limit || (estimate > 0 && spentUsd + estimate > limit)) return { ok: false, code: 'llm.budget_exceeded', scope, limitUsd: limit, spentUsd };
  }
  return { ok: true };
}

export interface MonthWindow {
  /** `YYYY-MM`. */
  month: string;
  from: Date;
  /** Exclusive. */
  to: Date;
}

/** The UTC calendar month of a date. */
export function monthOf(date: Date): MonthWindow {
  const from = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const to = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
  return { month: from.toISOString().slice(0, 7), from, to };
}

/** The window of a `YYYY-MM` text (checked by the caller's schema). */
export function monthWindow(month: string): MonthWindow {
  const [year, number] = month.split('-').map(Number);
  return monthOf(new Date(Date.UTC(year, number - 1, 1)));
}
