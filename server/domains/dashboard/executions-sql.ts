/**
 * `GET /api/v1/dashboard/executions`: run counts, success rate, median duration, a series per
 * status, the busiest and the failing workflows, and the latest failures.
 *
 * Which runs count: live runs (`simulated = false`, so test runs and evaluation runs never count),
 * sub-workflow runs, error-workflow runs and replays included (each is a run of a workflow the
 * member sees in the executions list), loop iterations left out (they are the work of their loop's
 * step; a loop of 10,000 items is one run, not 10,001). The executions list with `simulated=false`,
 * `loopIterations=false` and `from`/`to` lists exactly the runs a figure counted.
 *
 * A run belongs to the window (and to the bucket) of its `created_at`. Every statement's SQL is
 * built by `executionFiguresSql` (text + bound values), so the bench can run the very same SQL on
 * bare pg as its floor. The four statements run in parallel on the pool.
 *
 * The counts and the workflows read ended runs from the hourly rollup `dashboard_run_hours` (kept by a
 * trigger on executions, reconciled by the runner's `dashboard-reconcile`: rollups/) for the whole UTC
 * hours of the window that lie inside one bucket and one period (hours.ts), live runs (queued, running,
 * waiting: not rolled up) raw over those hours, and every run raw in the rest (the window's partial edge
 * hours, the hours a bucket start cuts). `executionFiguresRawSql` is the same figures from raw rows only:
 * the agreement test's reference and the bench's "before".
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { executionStatuses, type ExecutionStatus } from '../executions';
import { resolveAudience, type DashboardAudience } from './audience';
import type { DashboardQuery } from './query';
import type { ExecutionsFigures } from './schemas';
import { presentWindow, resolveWindow, type DashboardWindow } from './window';
import { mediansRawSql, mediansSql } from './rollups/median-sql';
import { SqlParams, type SqlStatement } from './sql';
import { inRawRanges, inRolledHours, splitByHours } from './hours';
import { liveStatusesSql } from './rollups/runs';

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
    FROM dashboard_run_hours r
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
        FROM dashboard_run_hours r
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

interface CountRow {
  current: boolean;
  bucket: number | null;
  status: string;
  count: number;
}

interface MedianRow {
  current: number | null;
  previous: number | null;
}

interface WorkflowRow {
  list: 'top' | 'failing';
  workflow_id: string;
  name: string;
  member_name: string | null;
  total: number;
  succeeded: number;
  failed: number;
  last_run_at: Date | null;
}

interface FailureRow {
  incident_id: string;
  execution_id: string;
  workflow_id: string;
  workflow_name: string;
  member_name: string | null;
  failed_at: Date;
  error_code: string;
  error_summary: string;
  node_id: string | null;
  node_name: string | null;
  acknowledged: boolean;
}

function run<Row>(statement: SqlStatement): Promise<Row[]> {
  return db().$queryRawUnsafe<Row[]>(statement.text, ...statement.values);
}

function totals(rows: CountRow[], median: number | null) {
  const byStatus = executionStatuses.map((status) => ({ status, count: rows.filter((row) => row.status === status).reduce((sum, row) => sum + row.count, 0) }));
  const count = (status: ExecutionStatus) => byStatus.find((entry) => entry.status === status)!.count;
  const ended = count('succeeded') + count('failed');
  return {
    total: byStatus.reduce((sum, entry) => sum + entry.count, 0),
    byStatus,
    successRate: ended === 0 ? null : count('succeeded') / ended,
    medianDurationMs: median,
  };
}

function workflowFigures(row: WorkflowRow) {
  return {
    workflowId: row.workflow_id,
    name: row.name,
    memberName: row.member_name,
    total: row.total,
    succeeded: row.succeeded,
    failed: row.failed,
    lastRunAt: row.last_run_at ? row.last_run_at.toISOString() : null,
  };
}

export async function executionFigures(actor: AuthenticatedActor, query: DashboardQuery): Promise<ExecutionsFigures> {
  const audience = resolveAudience(actor, query);
  const window = await resolveWindow(db(), query);
  return executionFiguresOf(window, audience);
}

/** The figures of a resolved window, from the route's statements (or `executionFiguresRawSql`'s, to compare). */
export async function executionFiguresOf(
  window: DashboardWindow,
  audience: DashboardAudience,
  build: (window: DashboardWindow, audience: DashboardAudience) => ExecutionFiguresSql = executionFiguresSql,
): Promise<ExecutionsFigures> {
  const sql = build(window, audience);
  const [counts, medians, workflows, failures] = await Promise.all([
    run<CountRow>(sql.counts),
    run<MedianRow>(sql.medians),
    run<WorkflowRow>(sql.workflows),
    run<FailureRow>(sql.recentFailures),
  ]);
  const current = counts.filter((row) => row.current);
  return {
    window: presentWindow(window),
    current: totals(current, medians[0]?.current ?? null),
    previous: totals(
      counts.filter((row) => !row.current),
      medians[0]?.previous ?? null,
    ),
    series: executionStatuses.map((status) => {
      const values = window.bucketStarts.map(() => 0);
      for (const row of current) if (row.status === status && row.bucket !== null) values[row.bucket - 1] = (values[row.bucket - 1] ?? 0) + row.count;
      return { status, values };
    }),
    topWorkflows: workflows.filter((row) => row.list === 'top').map(workflowFigures),
    failingWorkflows: workflows.filter((row) => row.list === 'failing').map(workflowFigures),
    recentFailures: failures.map((row) => ({
      executionId: row.execution_id,
      incidentId: row.incident_id,
      workflowId: row.workflow_id,
      workflowName: row.workflow_name,
      memberName: row.member_name,
      failedAt: row.failed_at.toISOString(),
      errorCode: row.error_code,
      errorSummary: row.error_summary,
      nodeId: row.node_id,
      nodeName: row.node_name,
      acknowledged: row.acknowledged,
    })),
  };
}
