/**
 * The AI dashboard's statements (`{text, values}`, the same SQL for the route and the bench on bare
 * pg), run in parallel:
 *
 * 1. Totals over `[previousFrom, to)` grouped by period, bucket (window only) and who paid (the
 *    instance: `credential_id` null; a member's own key otherwise).
 * 2. The window's breakdowns: by provider and model, by purpose, and (administrators only) by member with the
 *    member's name (raw: one GROUPING SETS scan; rolled up: one statement per dimension).
 * 3. The month's instance-paid spend, by the budget enforcement's own statement (llm/usage.ts
 *    `spentUsdSql`), always last.
 *
 * Statements 1 and 2 read hourly rollups for the window's whole UTC hours and raw rows for the rest (hours.ts):
 * `dashboard_llm_hours` (by who paid: totals, series, members), `dashboard_llm_model_hours` and
 * `dashboard_llm_purpose_hours` (three projections kept by one trigger on `llm_usage` and reconciled by the
 * runner, rollups/mail-ai-reconcile.ts: one table keyed by all would hold nearly a row per call), grouped the same
 * way, so they answer what the raw statements (`aiFiguresRawSql`: the agreement test's reference, the bench's
 * "before") answer. The rollups sum cost as numeric (each double converted, then added exactly); the raw sum of
 * doubles differs from it by float dust only, which `usd()` (6 decimals) removes from both.
 * The `mailboxId` filter reads raw: "usage of runs of that mailbox" is a join to executions per call, which the
 * rollup does not hold (adding the mailbox to its key would make every call of a run a lookup in the trigger).
 * The month's spend stays the enforcement's statement, raw: it is one sum over the month's instance-paid calls
 * through `llm_usage_created_at_idx`, and a second way of computing it could disagree with a refusal.
 */
import { spentUsdSql, type MonthWindow } from '../llm';
import type { DashboardAudience } from './audience';
import { inRawRanges, inRolledHours, splitByHours, type HourSplit } from './hours';
import { SqlParams, type SqlStatement } from './sql';
import type { DashboardWindow } from './window';

/** Rows of each breakdown kept, the costliest first. */
export const AI_BREAKDOWN_LIMIT = 100;

/** The audience's filters on usage rows `u` (`mailboxId`: usage of runs of that mailbox). */
function audienceWhere(p: SqlParams, audience: DashboardAudience): string[] {
  const where: string[] = [];
  if (audience.memberId) where.push(`u.member_id = ${p.add(audience.memberId, 'uuid')}`);
  if (audience.workflowId) where.push(`u.workflow_id = ${p.add(audience.workflowId, 'uuid')}`);
  if (audience.mailboxId) where.push(`EXISTS (SELECT 1 FROM executions e WHERE e.id = u.execution_id AND e.mailbox_id = ${p.add(audience.mailboxId, 'uuid')})`);
  return where;
}

const sums = `count(*)::int AS calls,
       coalesce(sum(u.input_tokens), 0)::float8 AS input_tokens,
       coalesce(sum(u.output_tokens), 0)::float8 AS output_tokens,
       coalesce(sum(u.reasoning_tokens), 0)::float8 AS reasoning_tokens,
       coalesce(sum(u.cost_usd), 0)::float8 AS cost_usd,
       count(*) FILTER (WHERE u.cost_usd IS NULL)::int AS unpriced_calls`;

export function aiFiguresSql(window: DashboardWindow, audience: DashboardAudience, budget: { month: MonthWindow; memberId: string }): SqlStatement[] {
  if (audience.mailboxId) return aiFiguresRawSql(window, audience, budget);
  return [aiTotalsRolledSql(window, audience), ...aiBreakdownsRolledSql(window, audience), spentUsdSql(budget.month, budget.memberId)];
}

/** The same figures from raw rows only: the agreement test's reference and the bench's "before". */
export function aiFiguresRawSql(window: DashboardWindow, audience: DashboardAudience, budget: { month: MonthWindow; memberId: string }): SqlStatement[] {
  return [aiTotalsSql(window, audience), aiBreakdownsSql(window, audience), spentUsdSql(budget.month, budget.memberId)];
}

/** Sums over the union `x` of rollup rows and raw rows (each raw row one call). */
const unionSums = `sum(x.calls)::int AS calls,
       coalesce(sum(x.input_tokens), 0)::float8 AS input_tokens,
       coalesce(sum(x.output_tokens), 0)::float8 AS output_tokens,
       coalesce(sum(x.reasoning_tokens), 0)::float8 AS reasoning_tokens,
       coalesce(sum(x.cost_usd), 0)::float8 AS cost_usd,
       sum(x.unpriced_calls)::int AS unpriced_calls`;

/**
 * Rows of one AI rollup projection (`h`, `table`) for the rolled hours and raw usage rows (`u`) for the raw ranges,
 * as one relation `x` with the columns `extra` names (SQL over `h` / over `u`) and the summed ones; `since` keeps
 * only instants from then.
 */
function usageUnion(
  p: SqlParams,
  split: HourSplit,
  audience: DashboardAudience,
  table: 'dashboard_llm_hours' | 'dashboard_llm_model_hours' | 'dashboard_llm_purpose_hours',
  extra: { name: string; rolled: string; raw: string }[],
  since?: Date,
): string {
  const filters = (alias: string) => [
    ...(audience.memberId ? [`${alias}.member_id = ${p.add(audience.memberId, 'uuid')}`] : []),
    ...(audience.workflowId ? [`${alias}.workflow_id = ${p.add(audience.workflowId, 'uuid')}`] : []),
  ];
  // A rollup row at 0 calls (its calls deleted or moved) is no group: the raw statement has none.
  const rolled = [inRolledHours(p, 'h.hour', split), 'h.calls <> 0', ...(since ? [`h.hour >= ${p.add(since, 'timestamptz')}`] : []), ...filters('h')];
  const raw = [inRawRanges(p, 'u.created_at', split), ...(since ? [`u.created_at >= ${p.add(since, 'timestamptz')}`] : []), ...filters('u')];
  const columns = (side: 'rolled' | 'raw') => extra.map((column) => `${column[side]} AS ${column.name}, `).join('');
  return `(SELECT ${columns('rolled')}h.calls, h.input_tokens, h.output_tokens, h.reasoning_tokens, h.cost_usd, h.unpriced_calls
          FROM ${table} h
         WHERE ${rolled.join(' AND ')}
        UNION ALL
        SELECT ${columns('raw')}1, u.input_tokens, u.output_tokens, u.reasoning_tokens, u.cost_usd::numeric, (u.cost_usd IS NULL)::int
          FROM llm_usage u
         WHERE ${raw.join(' AND ')}) x`;
}

function aiTotalsRolledSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const p = new SqlParams();
  const split = splitByHours(window);
  const from = p.add(window.from, 'timestamptz');
  const bucket = p.add(window.bucket, 'text');
  const tz = p.add(window.tz, 'text');
  const union = usageUnion(p, split, audience, 'dashboard_llm_hours', [
    { name: 'current', rolled: `(h.hour >= ${from})`, raw: `(u.created_at >= ${from})` },
    { name: 'start', rolled: `CASE WHEN h.hour >= ${from} THEN date_trunc(${bucket}, h.hour, ${tz}) END`, raw: `CASE WHEN u.created_at >= ${from} THEN date_trunc(${bucket}, u.created_at, ${tz}) END` },
    { name: 'instance', rolled: 'NOT h.on_member_key', raw: '(u.credential_id IS NULL)' },
  ]);
  return {
    text: `SELECT x.current, x.start, x.instance,
       ${unionSums}
  FROM ${union}
 GROUP BY 1, 2, 3`,
    values: p.values,
  };
}

/**
 * The raw breakdowns' rows (one GROUPING SETS scan there) as one statement per dimension, each from its projection:
 * by model, by purpose, by member (administrators) from the totals one. Separate statements rather than one UNION
 * ALL: the route runs them in parallel on its pool, while the UNION ALL drew a parallel plan whose workers cost
 * more to start on a busy 2-core box (≈ 100 ms, bench/dashboard.ts) than its three small scans.
 */
function aiBreakdownsRolledSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement[] {
  const split = splitByHours(window);
  const column = (name: string) => ({ name, rolled: `h.${name}`, raw: `u.${name}` });
  const statement = (build: (p: SqlParams) => string): SqlStatement => {
    const p = new SqlParams();
    return { text: build(p), values: p.values };
  };
  return [
    statement(
      (p) => `SELECT 'model' AS dimension, x.provider, x.model, NULL::text AS purpose, NULL::uuid AS member_id, NULL::text AS member_name,
       ${unionSums}
  FROM ${usageUnion(p, split, audience, 'dashboard_llm_model_hours', [column('provider'), column('model')], window.from)}
 GROUP BY x.provider, x.model`,
    ),
    statement(
      (p) => `SELECT 'purpose' AS dimension, NULL::text AS provider, NULL::text AS model, x.purpose, NULL::uuid AS member_id, NULL::text AS member_name,
       ${unionSums}
  FROM ${usageUnion(p, split, audience, 'dashboard_llm_purpose_hours', [column('purpose')], window.from)}
 GROUP BY x.purpose`,
    ),
    ...(audience.isAdmin
      ? [
          statement(
            (p) => `SELECT 'member' AS dimension, NULL::text AS provider, NULL::text AS model, NULL::text AS purpose, x.member_id, mb.name AS member_name,
       ${unionSums}
  FROM ${usageUnion(p, split, audience, 'dashboard_llm_hours', [column('member_id')], window.from)}
  LEFT JOIN members mb ON mb.id = x.member_id
 GROUP BY x.member_id, mb.name`,
          ),
        ]
      : []),
  ];
}

function aiTotalsSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const p = new SqlParams();
  const from = p.add(window.from, 'timestamptz');
  const where = [`u.created_at >= ${p.add(window.previousFrom, 'timestamptz')}`, `u.created_at < ${p.add(window.to, 'timestamptz')}`, ...audienceWhere(p, audience)];
  const bucket = p.add(window.bucket, 'text');
  const tz = p.add(window.tz, 'text');
  return {
    text: `SELECT (u.created_at >= ${from}) AS current,
       CASE WHEN u.created_at >= ${from} THEN date_trunc(${bucket}, u.created_at, ${tz}) END AS start,
       (u.credential_id IS NULL) AS instance,
       ${sums}
  FROM llm_usage u
 WHERE ${where.join(' AND ')}
 GROUP BY 1, 2, 3`,
    values: p.values,
  };
}

function aiBreakdownsSql(window: DashboardWindow, audience: DashboardAudience): SqlStatement {
  const p = new SqlParams();
  const where = [`u.created_at >= ${p.add(window.from, 'timestamptz')}`, `u.created_at < ${p.add(window.to, 'timestamptz')}`, ...audienceWhere(p, audience)];
  const sets = ['(u.provider, u.model)', '(u.purpose)', ...(audience.isAdmin ? ['(u.member_id, mb.name)'] : [])];
  return {
    text: `SELECT CASE WHEN GROUPING(u.provider) = 0 THEN 'model' WHEN GROUPING(u.purpose) = 0 THEN 'purpose' ELSE 'member' END AS dimension,
       u.provider, u.model, u.purpose,
       ${audience.isAdmin ? 'u.member_id, mb.name AS member_name' : 'NULL::uuid AS member_id, NULL::text AS member_name'},
       ${sums}
  FROM llm_usage u
  ${audience.isAdmin ? 'LEFT JOIN members mb ON mb.id = u.member_id' : ''}
 WHERE ${where.join(' AND ')}
 GROUP BY GROUPING SETS (${sets.join(', ')})`,
    values: p.values,
  };
}
