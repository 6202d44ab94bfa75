/**
 * The queries of model-call spending (./usage.ts): the price table, the instance's budget row, one usage row per
 * call and the month's sums. Reading prices, costs and budgets is ./cost.ts (pure); presenting them is ./usage.ts.
 */
import { db, type Tx } from '../../core/db';
import type { Prisma } from '../../generated/prisma/client';

export const budgetRowId = 'instance';

export function findPriceRows(tx: Pick<Tx, 'llmPrice'> = db()) {
  return tx.llmPrice.findMany({ orderBy: [{ provider: 'asc' }, { model: 'asc' }] });
}

/** The whole price table is replaced: every row deleted, the new ones inserted (inside the caller's transaction). */
export async function replacePriceRows(tx: Tx, data: Prisma.LlmPriceCreateManyInput[]) {
  await tx.llmPrice.deleteMany();
  await tx.llmPrice.createMany({ data });
}

/** The prices that may apply to one call: the model's own row and its provider's `*` row. */
export function findPricesForModel(provider: string, model: string, tx: Pick<Tx, 'llmPrice'> = db()) {
  return tx.llmPrice.findMany({ where: { provider, model: { in: [model, '*'] } } });
}

export function findBudgetRow(tx: Pick<Tx, 'llmBudget'> = db()) {
  return tx.llmBudget.findUnique({ where: { id: budgetRowId } });
}

export function upsertBudgetRow(tx: Tx, data: { instanceMonthlyUsd?: number | null; memberMonthlyUsd?: number | null; updatedBy: string }) {
  return tx.llmBudget.upsert({ where: { id: budgetRowId }, create: { id: budgetRowId, ...data }, update: data });
}

export function insertUsageRow(data: Prisma.LlmUsageUncheckedCreateInput, tx: Pick<Tx, 'llmUsage'> = db()) {
  return tx.llmUsage.create({ data, select: { id: true, costUsd: true } });
}

export interface UsageRowData {
  connectionId: string | null;
  credentialId: string | null;
  provider: string;
  model: string;
  purpose: string;
  memberId: string | null;
  workflowId: string | null;
  executionId: string | null;
  stepId: string | null;
  conversationId: string | null;
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  costUsd: number | null;
}

/**
 * One usage row written as accounting, not as an effect: one statement whose commit does not wait for the WAL
 * flush (`set_config(…, true)` lasts for the statement's own implicit transaction, its commit included). A
 * database crash may lose the last fraction of a second of rows, never half a row. One round trip where a
 * transaction with `SET LOCAL` took four.
 */
export async function insertUsageRowUnflushed(data: UsageRowData): Promise<{ id: string; costUsd: number | null }> {
  const [row] = await db().$queryRawUnsafe<{ id: string; cost_usd: number | null }[]>(
    `INSERT INTO llm_usage (id, connection_id, credential_id, provider, model, purpose, member_id, workflow_id, execution_id, step_id,
                            conversation_id, input_tokens, output_tokens, reasoning_tokens, cost_usd)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, $5, $6::uuid, $7::uuid, $8::uuid, $9, $10::uuid, $11::int, $12::int, $13::int, $14::float8
     FROM (SELECT set_config('synchronous_commit', 'off', true)) AS accounting
     RETURNING id::text, cost_usd`,
    data.connectionId,
    data.credentialId,
    data.provider,
    data.model,
    data.purpose,
    data.memberId,
    data.workflowId,
    data.executionId,
    data.stepId,
    data.conversationId,
    data.inputTokens,
    data.outputTokens,
    data.reasoningTokens,
    data.costUsd,
  );
  return { id: row!.id, costUsd: row!.cost_usd };
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

export interface FigureRow {
  calls: bigint | number;
  input_tokens: bigint | number | null;
  output_tokens: bigint | number | null;
  reasoning_tokens: bigint | number | null;
  cost_usd: number | null;
  unpriced_calls: bigint | number;
  own_keys_cost_usd: number | null;
}

/** One month's usage, grouped by member, by purpose, by model and in all (the `grouping` column says which). */
export function usageFigureRows(window: { from: Date; to: Date }) {
  return db().$queryRaw<(FigureRow & { grouping: string; member_id: string | null; name: string | null; purpose: string | null; provider: string | null; model: string | null })[]>`
    SELECT CASE WHEN GROUPING(u.member_id) = 0 THEN 'member' WHEN GROUPING(u.purpose) = 0 THEN 'purpose' WHEN GROUPING(u.provider) = 0 THEN 'model' ELSE 'total' END AS grouping,
           u.member_id::text AS member_id, min(m.name) AS name, u.purpose, u.provider, u.model,
           count(*) AS calls, sum(u.input_tokens) AS input_tokens, sum(u.output_tokens) AS output_tokens,
           sum(u.reasoning_tokens) AS reasoning_tokens, coalesce(sum(u.cost_usd), 0)::float8 AS cost_usd,
           count(*) FILTER (WHERE u.cost_usd IS NULL) AS unpriced_calls,
           coalesce(sum(u.cost_usd) FILTER (WHERE u.credential_id IS NOT NULL), 0)::float8 AS own_keys_cost_usd
    FROM llm_usage u LEFT JOIN members m ON m.id = u.member_id
    WHERE u.created_at >= ${window.from} AND u.created_at < ${window.to}
    GROUP BY GROUPING SETS ((u.member_id), (u.purpose), (u.provider, u.model), ())`;
}
