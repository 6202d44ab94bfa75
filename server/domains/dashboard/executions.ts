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
 * built by `executionFiguresSql` (executions-sql.ts: text + bound values), so the bench can run the very same SQL on
 * bare pg as its floor. The four statements run in parallel on the pool.
 *
 * The counts and the workflows read ended runs from the hourly rollup `dashboard_run_hours` and the increments
 * run ends appended since the last fold (the view `dashboard_run_hours_now`; kept by a trigger on executions,
 * folded and reconciled by the runner: rollups/, repo-rollups.ts) for the whole UTC
 * hours of the window that lie inside one bucket and one period (hours.ts), live runs (queued, running,
 * waiting: not rolled up) raw over those hours, and every run raw in the rest (the window's partial edge
 * hours, the hours a bucket start cuts). `executionFiguresRawSql` is the same figures from raw rows only:
 * the agreement test's reference and the bench's "before".
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { executionStatuses, type ExecutionStatus } from '../executions';
import { resolveAudience, type DashboardAudience } from './audience';
import { executionFiguresSql, type ExecutionFiguresSql } from './executions-sql';
import type { DashboardQuery } from './query';
import { readFigures } from './repo';
import type { ExecutionsFigures } from './schemas';
import type { SqlStatement } from './sql';
import { presentWindow, resolveWindow, type DashboardWindow } from './window';

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
  return readFigures<Row>(statement);
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
