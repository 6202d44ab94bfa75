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
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { aiProviders } from './catalogue';
import { budgetVerdict, costOf, monthOf, monthWindow, priceOf, type BudgetVerdict, type Budgets, type TokenCounts } from './cost';
import type { PutBudgetsInput, PutPricesInput, UsageFigures } from './schemas';

const budgetRowId = 'instance';

// ----- prices --------------------------------------------------------------------------------

function presentPrice(row: { provider: string; model: string; inputUsdPerMillion: number; outputUsdPerMillion: number; reasoningUsdPerMillion: number | null; updatedAt: Date }) {
  return { ...row, provider: row.provider as (typeof aiProviders)[number], updatedAt: iso(row.updatedAt) };
}

async function priceRows(tx: Pick<Tx, 'llmPrice'> = db()) {
  const rows = await tx.llmPrice.findMany({ orderBy: [{ provider: 'asc' }, { model: 'asc' }] });
  // Providers in the spec's order, models alphabetically.
  return rows.sort((a, b) => aiProviders.indexOf(a.provider as never) - aiProviders.indexOf(b.provider as never));
}

export async function getPrices() {
  return { prices: (await priceRows()).map(presentPrice) };
}

export async function putPrices(actor: AuthenticatedActor, input: PutPricesInput, ip: string | null) {
  return db().$transaction(async (tx) => {
    await tx.llmPrice.deleteMany();
    await tx.llmPrice.createMany({
      data: input.prices.map((entry) => ({
        provider: entry.provider,
        model: entry.model,
        inputUsdPerMillion: entry.inputUsdPerMillion,
        outputUsdPerMillion: entry.outputUsdPerMillion,
        reasoningUsdPerMillion: entry.reasoningUsdPerMillion ?? null,
      })),
    });
    await recordAudit(auditByOf(actor), { action: 'llm.prices_updated', targetKind: 'llm_prices', details: { entries: input.prices.length }, ip }, tx);
    return { prices: (await priceRows(tx)).map(presentPrice) };
  });
}

// ----- budgets -------------------------------------------------------------------------------

async function budgetRow(tx: Pick<Tx, 'llmBudget'> = db()) {
  return tx.llmBudget.findUnique({ where: { id: budgetRowId } });
}

function budgetsOf(row: Awaited<ReturnType<typeof budgetRow>>): Budgets {
  return { instanceMonthlyUsd: row?.instanceMonthlyUsd ?? null, memberMonthlyUsd: row?.memberMonthlyUsd ?? null };
}

/**
 * The statement behind `spentUsd`: known costs the instance paid between two instants, in all and
 * for one member (members' own keys left out). Exported so the dashboard reads the budgets' spend
 * with this very statement (the two never disagree) and the bench can run it on bare pg.
 */
export function spentUsdSql(window: { from: Date; to: Date }, memberId: string | null): { text: string; values: unknown[] } {
  return {
    text: `SELECT coalesce(sum(cost_usd), 0)::float8 AS instance,
           coalesce(sum(cost_usd) FILTER (WHERE member_id = $3::uuid), 0)::float8 AS member
    FROM llm_usage WHERE created_at >= $1::timestamptz AND created_at < $2::timestamptz AND credential_id IS NULL`,
    values: [window.from, window.to, memberId],
  };
}

/** Known costs the instance paid between two instants, in all and for one member (members' own keys left out). */
export async function spentUsd(window: { from: Date; to: Date }, memberId: string | null, tx: Pick<Tx, '$queryRawUnsafe'> = db()) {
  const statement = spentUsdSql(window, memberId);
  const [row] = await tx.$queryRawUnsafe<{ instance: number | null; member: number | null }[]>(statement.text, ...statement.values);
  return { instanceUsd: Number(row?.instance ?? 0), memberUsd: Number(row?.member ?? 0) };
}

/** The monthly budgets as set (null: none). */
export async function currentBudgets(): Promise<Budgets> {
  return budgetsOf(await budgetRow());
}

async function presentBudgets(tx: Pick<Tx, 'llmBudget' | '$queryRawUnsafe'> = db()) {
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
    const row = await tx.llmBudget.upsert({ where: { id: budgetRowId }, create: { id: budgetRowId, ...data }, update: data });
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

/** Records one model call with its cost at today's prices (null when unknown); answers the row's id and cost. */
export async function recordUsage(usage: UsageRecord, tx: Pick<Tx, 'llmUsage' | 'llmPrice'> = db()): Promise<{ id: string; costUsd: number | null }> {
  const tokens = { inputTokens: tokenCount(usage.inputTokens), outputTokens: tokenCount(usage.outputTokens), reasoningTokens: tokenCount(usage.reasoningTokens) };
  const prices = await tx.llmPrice.findMany({ where: { provider: usage.provider, model: { in: [usage.model, '*'] } } });
  const costUsd = costOf(tokens, priceOf(prices, usage.provider, usage.model));
  const row = await tx.llmUsage.create({
    data: {
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
      costUsd,
    },
    select: { id: true, costUsd: true },
  });
  return row;
}

interface FigureRow {
  calls: bigint | number;
  input_tokens: bigint | number | null;
  output_tokens: bigint | number | null;
  reasoning_tokens: bigint | number | null;
  cost_usd: number | null;
  unpriced_calls: bigint | number;
  own_keys_cost_usd: number | null;
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
  const rows = await db().$queryRaw<(FigureRow & { grouping: string; member_id: string | null; name: string | null; purpose: string | null; provider: string | null; model: string | null })[]>`
    SELECT CASE WHEN GROUPING(u.member_id) = 0 THEN 'member' WHEN GROUPING(u.purpose) = 0 THEN 'purpose' WHEN GROUPING(u.provider) = 0 THEN 'model' ELSE 'total' END AS grouping,
           u.member_id::text AS member_id, min(m.name) AS name, u.purpose, u.provider, u.model,
           count(*) AS calls, sum(u.input_tokens) AS input_tokens, sum(u.output_tokens) AS output_tokens,
           sum(u.reasoning_tokens) AS reasoning_tokens, coalesce(sum(u.cost_usd), 0)::float8 AS cost_usd,
           count(*) FILTER (WHERE u.cost_usd IS NULL) AS unpriced_calls,
           coalesce(sum(u.cost_usd) FILTER (WHERE u.credential_id IS NOT NULL), 0)::float8 AS own_keys_cost_usd
    FROM llm_usage u LEFT JOIN members m ON m.id = u.member_id
    WHERE u.created_at >= ${window.from} AND u.created_at < ${window.to}
    GROUP BY GROUPING SETS ((u.member_id), (u.purpose), (u.provider, u.model), ())`;
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
