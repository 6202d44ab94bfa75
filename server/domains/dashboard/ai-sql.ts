/**
 * The AI dashboard's statements (`{text, values}`, the same SQL for the route and the bench on bare
 * pg). Three, run in parallel:
 *
 * 1. Totals over `[previousFrom, to)` grouped by period, bucket (window only) and who paid (the
 *    instance: `credential_id` null; a member's own key otherwise).
 * 2. The window's breakdowns in one scan (GROUPING SETS): by provider and model, by purpose, and
 *    (administrators only) by member with the member's name.
 * 3. The month's instance-paid spend, by the budget enforcement's own statement (llm/usage.ts
 *    `spentUsdSql`).
 */
import { spentUsdSql } from '../llm/usage';
import type { MonthWindow } from '../llm/cost';
import type { DashboardAudience } from './audience';
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
  return [aiTotalsSql(window, audience), aiBreakdownsSql(window, audience), spentUsdSql(budget.month, budget.memberId)];
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
