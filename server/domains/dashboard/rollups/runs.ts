/**
 * `dashboard_run_hours`: ended runs per whole UTC hour of their creation, member, workflow, mailbox and terminal
 * status (migration `dashboard_run_hours`). A trigger on executions keeps it in step in the writing transaction;
 * this reconciler recomputes a range of hours from the raw rows and corrects what differs, for whatever the
 * trigger could not see (a load with triggers off, a restore, a hand edit of the rollup).
 */
import type { Tx } from '../../../core/db';
import { foldRunRollupIncrements, reconcileBy } from '../repo-rollups';

/** The runs the dashboard counts (executions.ts's `countedRuns`, without the audience), for the alias `e`. */
export const countedRunsSql = "e.simulated = false AND e.eval_run_id IS NULL AND e.started_by IS DISTINCT FROM 'loop_iteration'";
/** Statuses a run ends in: only they are rolled up (live ones change many times per run and are counted raw). */
export const terminalStatusesSql = "('succeeded', 'failed', 'cancelled')";
export const liveStatusesSql = "('queued', 'running', 'waiting')";

/** The run hours' reconcile statement, for the hours `[$1, $2)` (reconcileRunHours below). */
export const runHoursReconcileSql = `WITH fresh AS (
       SELECT date_trunc('hour', e.created_at, 'UTC') AS hour, e.member_id, e.workflow_id, e.mailbox_id, e.status,
              count(*)::int AS runs, max(e.created_at) AS last_created_at
         FROM executions e
        WHERE ${countedRunsSql} AND e.status IN ${terminalStatusesSql}
          AND e.created_at >= $1::timestamptz AND e.created_at < $2::timestamptz
        GROUP BY 1, 2, 3, 4, 5
     ), upserted AS (
       INSERT INTO dashboard_run_hours AS h (hour, member_id, workflow_id, mailbox_id, status, runs, last_created_at)
       SELECT hour, member_id, workflow_id, mailbox_id, status, runs, last_created_at FROM fresh
       ON CONFLICT (hour, member_id, workflow_id, mailbox_id, status)
       DO UPDATE SET runs = excluded.runs, last_created_at = excluded.last_created_at
        WHERE (h.runs, h.last_created_at) IS DISTINCT FROM (excluded.runs, excluded.last_created_at)
       RETURNING 1
     ), deleted AS (
       DELETE FROM dashboard_run_hours h
        WHERE h.hour >= $1::timestamptz AND h.hour < $2::timestamptz
          AND NOT EXISTS (SELECT 1 FROM fresh f
                           WHERE f.hour = h.hour AND f.member_id = h.member_id AND f.workflow_id = h.workflow_id
                             AND f.mailbox_id IS NOT DISTINCT FROM h.mailbox_id AND f.status = h.status)
       RETURNING 1
     )
     SELECT ((SELECT count(*) FROM upserted) + (SELECT count(*) FROM deleted))::int AS fixed`;

/**
 * One statement: the hours' rows as the raw runs say they are (`fresh`), upserted where missing or different,
 * and the rollup rows of those hours that no raw run backs any more deleted. Returns how many rows it fixed.
 * Run it in a REPEATABLE READ transaction (reconcile.ts does): a trigger's change committed after the snapshot
 * then aborts it (40001, tried again) instead of being overwritten by a count that predates it.
 */
export async function reconcileRunHours(tx: Tx, fromHour: Date, toHour: Date): Promise<number> {
  // The pending increments first, in this snapshot: the raw runs below already hold the runs they count.
  await foldRunRollupIncrements(tx);
  return reconcileBy(tx, { text: runHoursReconcileSql, values: [fromHour, toHour] });
}
