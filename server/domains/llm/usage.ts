/**
 * What model calls cost and may cost: the price table, one usage row per call, the monthly budgets
 * and the month's summary. The reading of prices, costs and budgets is ./cost.ts (pure).
 *
 * The AI nodes, the assistant and the analyzer (later) call, around every model call:
 * `checkBudget` (or `enforceBudget`) before, `recordUsage` after; a refused call costs nothing and
 * is not recorded.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { aiProviders } from './catalogue';
import { budgetVerdict, costOf, monthOf, monthWindow, priceOf, type BudgetVerdict, type Budgets, type TokenCounts } from './cost';
import {
  findBudgetRow,
  findPriceRows,
  findPricesForModel,
  insertUsageRow,
  insertUsageRowUnflushed,
  replacePriceRows,
  spentUsd,
  upsertBudgetRow,
  usageFigureRows,
  type FigureRow,
  type UsageRowData,
} from './repo-usage';
import type { PutBudgetsInput, PutPricesInput, UsageFigures } from './schemas';

export { spentUsd, spentUsdSql } from './repo-usage';

// ----- prices --------------------------------------------------------------------------------

function presentPrice(row: { provider: string; model: string; inputUsdPerMillion: number; outputUsdPerMillion: number; reasoningUsdPerMillion: number | null; updatedAt: Date }) {
  return { ...row, provider: row.provider as (typeof aiProviders)[number], updatedAt: iso(row.updatedAt) };
}

async function priceRows(tx?: Parameters<typeof findPriceRows>[0]) {
  const rows = await findPriceRows(tx);
  // Providers in the spec's order, models alphabetically.
  return rows.sort((a, b) => aiProviders.indexOf(a.provider as never) - aiProviders.indexOf(b.provider as never));
}

export async function getPrices() {
  return { prices: (await priceRows()).map(presentPrice) };
}

export async function putPrices(actor: AuthenticatedActor, input: PutPricesInput, ip: string | null) {
  return db().$transaction(async (tx) => {
    await replacePriceRows(
      tx,
      input.prices.map((entry) => ({
        provider: entry.provider,
        model: entry.model,
        inputUsdPerMillion: entry.inputUsdPerMillion,
        outputUsdPerMillion: entry.outputUsdPerMillion,
        reasoningUsdPerMillion: entry.reasoningUsdPerMillion ?? null,
      })),
    );
    await recordAudit(auditByOf(actor), { action: 'llm.prices_updated', targetKind: 'llm_prices', details: { entries: input.prices.length }, ip }, tx);
    return { prices: (await priceRows(tx)).map(presentPrice) };
  });
}

// ----- budgets -------------------------------------------------------------------------------

const budgetRow = findBudgetRow;

function budgetsOf(row: Awaited<ReturnType<typeof budgetRow>>): Budgets {
  return { instanceMonthlyUsd: row?.instanceMonthlyUsd ?? null, memberMonthlyUsd: row?.memberMonthlyUsd ?? null };
}

/** The monthly budgets as set (null: none). */
export async function currentBudgets(): Promise<Budgets> {
  return budgetsOf(await budgetRow());
}

async function presentBudgets(tx: Parameters<typeof findBudgetRow>[0] & Parameters<typeof spentUsd>[2] = db()) {
  const row = await budgetRow(tx);
  const month = monthOf(new Date());
  const spent = await spentUsd(month, null, tx);
  return { ...budgetsOf(row), month: month.month, instanceSpentUsd: spent.instanceUsd, updatedAt: row ? iso(row.updatedAt) : null };
}

export function getBudgets() {
  return presentBudgets();
}

export async function putBudgets(actor: AuthenticatedActor, input: PutBudgetsInput, ip: string | null) {
  return db().$transaction(async (tx) => {
    const data = {
      ...(input.instanceMonthlyUsd !== undefined ? { instanceMonthlyUsd: input.instanceMonthlyUsd } : {}),
      ...(input.memberMonthlyUsd !== undefined ? { memberMonthlyUsd: input.memberMonthlyUsd } : {}),
      updatedBy: actor.member.id,
    };
    const row = await upsertBudgetRow(tx, data);
    await recordAudit(
      auditByOf(actor),
      { action: 'llm.budgets_updated', targetKind: 'llm_budgets', details: { instanceMonthlyUsd: row.instanceMonthlyUsd, memberMonthlyUsd: row.memberMonthlyUsd }, ip },
      tx,
    );
    return presentBudgets(tx);
  });
}

/**
 * Whether a call for `memberId` may run now: refused when this month's spending (plus the call's
 * estimate, when known) goes beyond the instance's or the member's hard budget.
 */
export async function checkBudget(memberId: string, estimateUsd?: number, now: Date = new Date()): Promise<BudgetVerdict> {
  const budgets = budgetsOf(await budgetRow());
  if (budgets.instanceMonthlyUsd === null && budgets.memberMonthlyUsd === null) return { ok: true };
  return budgetVerdict(budgets, await spentUsd(monthOf(now), memberId), estimateUsd);
}

/** checkBudget, throwing 402 `llm.budget_exceeded` (with `details.scope`, `limitUsd`, `spentUsd`) when refused. */
export async function enforceBudget(memberId: string, estimateUsd?: number): Promise<void> {
  const verdict = await checkBudget(memberId, estimateUsd);
  if (!verdict.ok) throw appError('llm.budget_exceeded', { details: { scope: verdict.scope, limitUsd: verdict.limitUsd, spentUsd: verdict.spentUsd } });
}

// ----- usage ---------------------------------------------------------------------------------

export interface UsageRecord extends TokenCounts {
  connectionId: string | null;
  /** A member's own key (`llm_provider` credential) served the call: not counted against budgets. */
  credentialId?: string | null;
  provider: string;
  model: string;
  purpose: string;
  memberId: string | null;
  workflowId?: string | null;
  executionId?: string | null;
  stepId?: string | null;
  conversationId?: string | null;
}

const tokenCount = (value: number) => (Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), 2_147_483_647) : 0);

type PriceRows = Awaited<ReturnType<typeof findPricesForModel>>;

/** The row of one model call: its tokens bounded to the column, its cost at the given prices (null when unknown). */
function usageRowOf(usage: UsageRecord, prices: PriceRows): UsageRowData {
  const tokens = { inputTokens: tokenCount(usage.inputTokens), outputTokens: tokenCount(usage.outputTokens), reasoningTokens: tokenCount(usage.reasoningTokens) };
  return {
    connectionId: usage.connectionId,
    credentialId: usage.credentialId ?? null,
    provider: usage.provider,
    model: usage.model,
    purpose: usage.purpose,
    memberId: usage.memberId,
    workflowId: usage.workflowId ?? null,
    executionId: usage.executionId ?? null,
    stepId: usage.stepId ?? null,
    conversationId: usage.conversationId ?? null,
    ...tokens,
    costUsd: costOf(tokens, priceOf(prices, usage.provider, usage.model)),
  };
}

/** Records one model call with its cost at today's prices (null when unknown); answers the row's id and cost. */
export async function recordUsage(usage: UsageRecord, tx: Parameters<typeof findPricesForModel>[2] & Parameters<typeof insertUsageRow>[1] = db()): Promise<{ id: string; costUsd: number | null }> {
  return insertUsageRow(usageRowOf(usage, await findPricesForModel(usage.provider, usage.model, tx)), tx);
}

/** The prices one model's calls are costed at: an AI step reads them while its call runs (it takes seconds). */
export function pricesOfModel(provider: string, model: string): Promise<PriceRows> {
  return findPricesForModel(provider, model);
}

/**
 * Records an AI step's call (server/engine-adapters/ai.ts) at the prices read beside it, as accounting: its commit
 * does not wait for the WAL flush (`insertUsageRowUnflushed`). Answers the row's id and cost.
 */
export async function recordCallUsage(usage: UsageRecord, prices: PriceRows): Promise<{ id: string; costUsd: number | null }> {
  return insertUsageRowUnflushed(usageRowOf(usage, prices));
}

function figuresOf(row: FigureRow): UsageFigures {
  return {
    calls: Number(row.calls),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    reasoningTokens: Number(row.reasoning_tokens ?? 0),
    costUsd: Math.round(Number(row.cost_usd ?? 0) * 1e9) / 1e9,
    unpricedCalls: Number(row.unpriced_calls),
    ownKeysCostUsd: Math.round(Number(row.own_keys_cost_usd ?? 0) * 1e9) / 1e9,
  };
}

/** The month's usage (UTC calendar month, default the current one): totals, then by member, purpose and model, costliest first. */
export async function usageSummary(query: { month?: string }) {
  const window = query.month ? monthWindow(query.month) : monthOf(new Date());
  const rows = await usageFigureRows(window);
  const byCost = <T extends UsageFigures>(a: T, b: T) => b.costUsd - a.costUsd || b.calls - a.calls;
  const total = rows.find((row) => row.grouping === 'total');
  return {
    month: window.month,
    from: iso(window.from),
    to: iso(window.to),
    totals: total ? figuresOf(total) : { calls: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0, costUsd: 0, unpricedCalls: 0, ownKeysCostUsd: 0 },
    byMember: rows.filter((row) => row.grouping === 'member').map((row) => ({ memberId: row.member_id, name: row.name, ...figuresOf(row) })).sort(byCost),
    byPurpose: rows.filter((row) => row.grouping === 'purpose').map((row) => ({ purpose: row.purpose ?? '', ...figuresOf(row) })).sort(byCost),
    byModel: rows.filter((row) => row.grouping === 'model').map((row) => ({ provider: row.provider ?? '', model: row.model ?? '', ...figuresOf(row) })).sort(byCost),
  };
}
