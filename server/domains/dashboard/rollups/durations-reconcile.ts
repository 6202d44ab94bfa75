/**
 * The `duration-days` reconciler: recomputes `dashboard_duration_days` (the median's histogram, see median-sql.ts)
 * from the raw runs for the UTC days that hold `[fromHour, toHour)` and corrects the differences: inserts missing
 * rows, fixes wrong counts, empties and then deletes rows whose runs are gone. Returns how many rows were wrong.
 *
 * The trigger on `executions` keeps the table right in the writer's transaction; this repairs what no trigger sees
 * (a restore, a manual edit of the rollup, a trigger disabled for a bulk load). Its rows are days, so a range of
 * hours widens to whole days. The `dashboard-reconcile` task runs every entry of the registry over the last 48 hours
 * every 10 minutes, and over the whole history once a day.
 *
 * No lock, no lost update: the correction is a delta. In one statement (one snapshot) it takes, per row, the raw
 * count minus the rollup's count, and adds that difference to the row as it is when written (ON CONFLICT reads the
 * latest version). A run committed meanwhile is in neither count, and its trigger's +1 is kept, where writing the
 * absolute count would erase it. Under READ COMMITTED it never waits on or fails for a writer beyond the rows it
 * corrects; under REPEATABLE READ a row a writer changed meanwhile is a serialization failure (the registry retries).
 */
import type { Tx } from '../../../core/db';
import { executeIn, foldRunRollupIncrements, reconcileBy } from '../repo-rollups';

const dayMs = 86_400_000;

/** The days `[fromDay, toDay)` (YYYY-MM-DD, UTC) that hold the hours `[fromHour, toHour)`. */
function daysOf(fromHour: Date, toHour: Date): { fromDay: string; toDay: string } {
  const fromDay = new Date(Math.floor(fromHour.getTime() / dayMs) * dayMs);
  const toDay = new Date(Math.ceil(toHour.getTime() / dayMs) * dayMs);
  return { fromDay: fromDay.toISOString().slice(0, 10), toDay: toDay.toISOString().slice(0, 10) };
}

/**
 * The reconciling statement for the UTC days `[$1, $2)` (dates): one row `{fixed}`, the rows it corrected. Exported
 * for the bench, which fills the rollup with it after a load with the trigger disabled.
 */
export const durationDaysReconcileSql = `WITH fresh AS (
  SELECT r.day, r.member_id, r.workflow_id, r.mailbox_id, r.bin, count(*)::int AS runs
    FROM (SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day, e.member_id, e.workflow_id, e.mailbox_id,
                 dashboard_duration_bin(round(date_part('epoch', e.finished_at - e.started_at) * 1000)) AS bin
            FROM executions e
           WHERE e.simulated = false AND e.eval_run_id IS NULL AND e.started_by IS DISTINCT FROM 'loop_iteration'
             AND e.finished_at IS NOT NULL AND e.started_at IS NOT NULL
             AND e.created_at >= $1::date::timestamp AT TIME ZONE 'UTC' AND e.created_at < $2::date::timestamp AT TIME ZONE 'UTC') r
   -- A run's own row and its day's organisation row (member, workflow, mailbox null), as the trigger keeps them.
   GROUP BY GROUPING SETS ((r.day, r.member_id, r.workflow_id, r.mailbox_id, r.bin), (r.day, r.bin))
), diff AS (
  SELECT t.day, t.member_id, t.workflow_id, t.mailbox_id, t.bin, sum(t.runs)::int AS delta
    FROM (SELECT day, member_id, workflow_id, mailbox_id, bin, runs FROM fresh
          UNION ALL
          SELECT d.day, d.member_id, d.workflow_id, d.mailbox_id, d.bin, -d.runs FROM dashboard_duration_days d WHERE d.day >= $1::date AND d.day < $2::date) t
   GROUP BY 1, 2, 3, 4, 5
  HAVING sum(t.runs) <> 0
), fixed AS (
  INSERT INTO dashboard_duration_days AS d (day, member_id, workflow_id, mailbox_id, bin, runs)
  SELECT day, member_id, workflow_id, mailbox_id, bin, delta FROM diff
  ON CONFLICT (day, member_id, workflow_id, mailbox_id, bin) DO UPDATE SET runs = d.runs + excluded.runs
  RETURNING 1
)
SELECT count(*)::int AS fixed FROM fixed`;

/** Rows left at 0 in the days `[$1, $2)` (a row a writer changed meanwhile is re-checked and kept). */
export const durationDaysEmptyRowsSql = `DELETE FROM dashboard_duration_days WHERE day >= $1::date AND day < $2::date AND runs = 0`;

export async function reconcileDurationDays(tx: Tx, fromHour: Date, toHour: Date): Promise<number> {
  const { fromDay, toDay } = daysOf(fromHour, toHour);
  if (fromDay >= toDay) return 0;
  await foldRunRollupIncrements(tx);
  const fixed = await reconcileBy(tx, { text: durationDaysReconcileSql, values: [fromDay, toDay] });
  await executeIn(tx, { text: durationDaysEmptyRowsSql, values: [fromDay, toDay] });
  return fixed;
}

/** The registry entry (server/domains/dashboard/rollups/reconcile.ts lists it). */
export const durationDaysReconciler = {
  name: 'dashboard_duration_days',
  reconcile: reconcileDurationDays,
};
