/**
 * The executions dashboard's statements (executions.ts runs them and assembles the figures), built as
 * plain `{text, values}` so the route and the bench (bare pg) run the very same SQL: `executionFiguresSql`
 * (the rollup where whole hours allow, raw rows for the rest) and `executionFiguresRawSql` (raw rows only:
 * the agreement test's reference and the bench's "before"). Which runs count and how the window splits
 * into rolled and raw hours: executions.ts.
 */
import type { DashboardAudience } from './audience';
import { inRawRanges, inRolledHours, splitByHours } from './hours';
import { mediansRawSql, mediansSql } from './rollups/median-sql';
import { liveStatusesSql } from './rollups/runs';
import { SqlParams, type SqlStatement } from './sql';
import type { DashboardWindow } from './window';

/** The executions route's four statements, run in parallel; each value a string (or a string array cast in SQL). */
export interface ExecutionFiguresSql {
  /** Runs per (period, bucket, status) over `[previousFrom, to)`; bucket null in the previous period. */
  counts: SqlStatement;
  /** One row: median `finished_at − started_at` (ms, exactly `percentile_cont(0.5)`) of finished runs, `current` and `previous` (rollups/median-sql.ts). */
  medians: SqlStatement;
  /** Per workflow in the window: the top 5 by runs (`list = 'top'`) and the top 5 by failures (`list = 'failing'`). */
  workflows: SqlStatement;
  /** The 10 latest failed runs of the window, from their incidents. */
  recentFailures: SqlStatement;
}

/** The runs that count, for the alias `e`: live, not evaluation runs, not loop iterations, the audience's. */
function countedRuns(params: SqlParams, audience: DashboardAudience): string {
  const where = ['e.simulated = false', 'e.eval_run_id IS NULL', "e.started_by IS DISTINCT FROM 'loop_iteration'"];
  if (audience.memberId !== null) where.push(`e.member_id = ${params.add(audience.memberId)}::uuid`);
  if (audience.workflowId !== null) where.push(`e.workflow_id = ${params.add(audience.workflowId)}::uuid`);
  if (audience.mailboxId !== null) where.push(`e.mailbox_id = ${params.add(audience.mailboxId)}::uuid`);
  return where.join(' AND ');
}

/** The audience's filters on a rollup alias (its rows are counted runs already). */
function audienceOn(params: SqlParams, audience: DashboardAudience, alias: string): string {
  const where: string[] = [];
  if (audience.memberId !== null) where.push(`${alias}.member_id = ${params.add(audience.memberId)}::uuid`);
  if (audience.workflowId !== null) where.push(`${alias}.workflow_id = ${params.add(audience.workflowId)}::uuid`);
  if (audience.mailboxId !== null) where.push(`${alias}.mailbox_id = ${params.add(audience.mailboxId)}::uuid`);
  return where.map((condition) => `${condition} AND `).join('');
}

/**
 * The route's statements: counts and workflows from the hourly rollup plus raw rows (see the module's comment),
 * the median from the duration histogram (rollups/median-sql.ts), recent failures as `executionFiguresRawSql` writes them. The bench's floor runs them too.
 */
export function executionFiguresSql(window: DashboardWindow, audience: DashboardAudience): ExecutionFiguresSql {
  const raw = executionFiguresRawSql(window, audience);
  const split = splitByHours(window);
  const from = window.from.toISOString();
  const to = window.to.toISOString();

  // Three parts, grouped as the raw statement groups: ended runs of the rolled hours from their rollup rows
  // (an hour of them lies in one bucket and one period, so the hour places them as their own `created_at`
  // would), live runs of the rolled hours raw (executions_dashboard_live_created_at_idx), every run of the
  // raw ranges raw.
  const counts = new SqlParams();
  const countsFrom = counts.add(from);
  const starts = counts.add(window.bucketStarts.map((start) => start.toISOString()));
  const placed = (at: string) =>
    `${at} >= ${countsFrom}::timestamptz AS current,
         CASE WHEN ${at} >= ${countsFrom}::timestamptz THEN width_bucket(${at}, ${starts}::timestamptz[]) END AS bucket`;
  const countsText = `SELECT current, bucket, status, sum(count)::int AS count FROM (
  SELECT ${placed('r.hour')}, r.status, r.runs AS count
    FROM dashboard_run_hours_now r
   WHERE ${audienceOn(counts, audience, 'r')}${inRolledHours(counts, 'r.hour', split)}
  UNION ALL
  SELECT ${placed('e.created_at')}, e.status, 1
    FROM executions e
   WHERE ${countedRuns(counts, audience)} AND e.status IN ${liveStatusesSql}
     AND e.created_at >= ${counts.add(split.rolledFrom, 'timestamptz')} AND e.created_at < ${counts.add(split.rolledTo, 'timestamptz')}
     AND NOT ${inRawRanges(counts, 'e.created_at', split)}
  UNION ALL
  SELECT ${placed('e.created_at')}, e.status, 1
    FROM executions e
   WHERE ${countedRuns(counts, audience)} AND ${inRawRanges(counts, 'e.created_at', split)}
) runs
 GROUP BY 1, 2, 3`;

  // The same three parts over `[from, to)` only. A rolled hour at or after `from` is wholly in the window
  // (an hour `from` cuts is read raw).
  const workflows = new SqlParams();
  const workflowsFrom = workflows.add(from);
  const workflowsText = `WITH per AS (
  SELECT workflow_id, member_id, sum(total)::int AS total, sum(succeeded)::int AS succeeded, sum(failed)::int AS failed, max(last_run_at) AS last_run_at
    FROM (
      SELECT r.workflow_id, r.member_id, r.runs AS total,
             CASE WHEN r.status = 'succeeded' THEN r.runs ELSE 0 END AS succeeded,
             CASE WHEN r.status = 'failed' THEN r.runs ELSE 0 END AS failed,
             r.last_created_at AS last_run_at
        FROM dashboard_run_hours_now r
       WHERE ${audienceOn(workflows, audience, 'r')}${inRolledHours(workflows, 'r.hour', split)} AND r.hour >= ${workflowsFrom}::timestamptz AND r.runs > 0
      UNION ALL
      SELECT e.workflow_id, e.member_id, 1, 0, 0, e.created_at
        FROM executions e
       WHERE ${countedRuns(workflows, audience)} AND e.status IN ${liveStatusesSql} AND e.created_at >= ${workflowsFrom}::timestamptz
         AND e.created_at >= ${workflows.add(split.rolledFrom, 'timestamptz')} AND e.created_at < ${workflows.add(split.rolledTo, 'timestamptz')}
         AND NOT ${inRawRanges(workflows, 'e.created_at', split)}
      UNION ALL
      SELECT e.workflow_id, e.member_id, 1, (e.status = 'succeeded')::int, (e.status = 'failed')::int, e.created_at
        FROM executions e
       WHERE ${countedRuns(workflows, audience)} AND ${inRawRanges(workflows, 'e.created_at', split)}
         AND e.created_at >= ${workflowsFrom}::timestamptz AND e.created_at < ${workflows.add(to)}::timestamptz
    ) runs
   GROUP BY workflow_id, member_id
)${workflowsTail}`;

  return {
    ...raw,
    counts: { text: countsText, values: counts.values },
    // One row for both periods, exact, from the duration histogram (rollups/median-sql.ts).
    medians: mediansSql(window, audience),
    workflows: { text: workflowsText, values: workflows.values },
  };
}

/** The ranking of `per` (workflow_id, member_id, total, succeeded, failed, last_run_at): shared by both builders. */
const workflowsTail = `, named AS (
  SELECT per.*, coalesce(w.name, '') AS name, m.name AS member_name
    FROM per LEFT JOIN workflows w ON w.id = per.workflow_id LEFT JOIN members m ON m.id = per.member_id
)
SELECT * FROM (
  (SELECT 'top' AS list, (row_number() OVER (ORDER BY total DESC, name ASC, workflow_id ASC))::int AS rank, * FROM named ORDER BY rank LIMIT 5)
  UNION ALL
  (SELECT 'failing' AS list, (row_number() OVER (ORDER BY failed DESC, name ASC, workflow_id ASC))::int AS rank, * FROM named WHERE failed > 0 ORDER BY rank LIMIT 5)
) lists
ORDER BY list, rank`;

/**
 * The four statements from raw executions rows only (the figures before rollups): the reference the rollup
 * agreement test compares the route against, and the bench's "before".
 */
export function executionFiguresRawSql(window: DashboardWindow, audience: DashboardAudience): ExecutionFiguresSql {
  const from = window.from.toISOString();
  const to = window.to.toISOString();
  const previousFrom = window.previousFrom.toISOString();

  const counts = new SqlParams();
  const countsFrom = counts.add(from);
  const starts = counts.add(window.bucketStarts.map((start) => start.toISOString()));
  const countsText = `SELECT e.created_at >= ${countsFrom}::timestamptz AS current,
       CASE WHEN e.created_at >= ${countsFrom}::timestamptz THEN width_bucket(e.created_at, ${starts}::timestamptz[]) END AS bucket,
       e.status AS status,
       count(*)::int AS count
  FROM executions e
 WHERE ${countedRuns(counts, audience)}
   AND e.created_at >= ${counts.add(previousFrom)}::timestamptz AND e.created_at < ${counts.add(to)}::timestamptz
 GROUP BY 1, 2, 3`;

  const medians = mediansRawSql(window, audience);

  const workflows = new SqlParams();
  const workflowsText = `WITH per AS (
  SELECT e.workflow_id, e.member_id,
         count(*)::int AS total,
         count(*) FILTER (WHERE e.status = 'succeeded')::int AS succeeded,
         count(*) FILTER (WHERE e.status = 'failed')::int AS failed,
         max(e.created_at) AS last_run_at
    FROM executions e
   WHERE ${countedRuns(workflows, audience)}
     AND e.created_at >= ${workflows.add(from)}::timestamptz AND e.created_at < ${workflows.add(to)}::timestamptz
   GROUP BY e.workflow_id, e.member_id
)${workflowsTail}`;

  const failures = new SqlParams();
  const failuresFrom = failures.add(from);
  const memberOfIncident = audience.memberId === null ? '' : `i.member_id = ${failures.add(audience.memberId)}::uuid AND `;
  const failuresText = `SELECT i.id AS incident_id, e.id AS execution_id, e.workflow_id,
       coalesce(w.name, i.workflow_name) AS workflow_name, m.name AS member_name, i.failed_at,
       coalesce(e.error->>'code', '') AS error_code, i.error_summary, i.node_id, i.node_name,
       (i.acknowledged_at IS NOT NULL OR i.resolved_at IS NOT NULL) AS acknowledged
  FROM incidents i
  JOIN executions e ON e.id = i.execution_id
  LEFT JOIN workflows w ON w.id = e.workflow_id
  LEFT JOIN members m ON m.id = e.member_id
 WHERE ${memberOfIncident}i.failed_at >= ${failuresFrom}::timestamptz
   AND ${countedRuns(failures, audience)}
   AND e.created_at >= ${failuresFrom}::timestamptz AND e.created_at < ${failures.add(to)}::timestamptz
 ORDER BY i.failed_at DESC, i.id DESC
 LIMIT 10`;

  return {
    counts: { text: countsText, values: counts.values },
    medians,
    workflows: { text: workflowsText, values: workflows.values },
    recentFailures: { text: failuresText, values: failures.values },
  };
}
