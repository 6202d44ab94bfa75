/**
 * The `duration-days` reconciler: recomputes `dashboard_duration_days` (the median's histogram, see median-sql.ts)
 * from the raw runs for the UTC days that hold `[fromHour, toHour)` and corrects the differences: inserts missing
 * rows, fixes wrong counts, deletes rows whose runs are gone. Returns how many rows were wrong (a row at 0 with no
 * run left is removed but not counted: the trigger leaves those behind and they change no figure).
 *
 * The trigger on `executions` keeps the table right in the writer's transaction; this repairs what no trigger sees
 * (a restore, a manual edit of the rollup, a trigger disabled for a bulk load). Its rows are days, so a range of
 * hours widens to whole days. The `dashboard-reconcile` task runs every entry of the registry over the last 48 hours
 * every 10 minutes, and over the whole history once a day.
 *
 * It locks the rollup table against writers (SHARE ROW EXCLUSIVE: the trigger's ROW EXCLUSIVE waits) for the rest of
 * the caller's transaction, and then counts: a run committed between the count and the write would otherwise be
 * overwritten by the stale count. Runs that finish meanwhile wait for the lock (one day of runs at the bench's
 * busiest month, ~30,000, counts in well under a second).
 */
import type { Tx } from '../../../core/db';

const dayMs = 86_400_000;

/** The days `[fromDay, toDay)` (YYYY-MM-DD, UTC) that hold the hours `[fromHour, toHour)`. */
function daysOf(fromHour: Date, toHour: Date): { fromDay: string; toDay: string } {
  const fromDay = new Date(Math.floor(fromHour.getTime() / dayMs) * dayMs);
  const toDay = new Date(Math.ceil(toHour.getTime() / dayMs) * dayMs);
  return { fromDay: fromDay.toISOString().slice(0, 10), toDay: toDay.toISOString().slice(0, 10) };
}

/**
 * The reconciling statement for the UTC days `[$1, $2)` (dates): one row `{fixed}`. Exported for the bench, which
 * fills the rollup with it after a load with the trigger disabled (no lock needed there: nothing else writes).
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
), upserted AS (
  INSERT INTO dashboard_duration_days AS d (day, member_id, workflow_id, mailbox_id, bin, runs)
  SELECT day, member_id, workflow_id, mailbox_id, bin, runs FROM fresh
  ON CONFLICT (day, member_id, workflow_id, mailbox_id, bin) DO UPDATE SET runs = excluded.runs WHERE d.runs <> excluded.runs
  RETURNING 1
), deleted AS (
  DELETE FROM dashboard_duration_days d
   WHERE d.day >= $1::date AND d.day < $2::date
     AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.day = d.day AND f.member_id IS NOT DISTINCT FROM d.member_id AND f.workflow_id IS NOT DISTINCT FROM d.workflow_id
                        AND f.mailbox_id IS NOT DISTINCT FROM d.mailbox_id AND f.bin = d.bin)
  RETURNING d.runs
)
SELECT ((SELECT count(*) FROM upserted) + (SELECT count(*) FROM deleted WHERE runs <> 0))::int AS fixed`;

export async function reconcileDurationDays(tx: Tx, fromHour: Date, toHour: Date): Promise<number> {
  const { fromDay, toDay } = daysOf(fromHour, toHour);
  if (fromDay >= toDay) return 0;
  await tx.$executeRawUnsafe('LOCK TABLE dashboard_duration_days IN SHARE ROW EXCLUSIVE MODE');
  const rows = await tx.$queryRawUnsafe<{ fixed: number }[]>(durationDaysReconcileSql, fromDay, toDay);
  return rows[0]?.fixed ?? 0;
}

/** The registry entry (server/domains/dashboard/rollups/reconcile.ts lists it). */
export const durationDaysReconciler = {
  name: 'duration-days',
  reconcile: reconcileDurationDays,
};
