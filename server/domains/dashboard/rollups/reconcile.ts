/**
 * The dashboard's rollups and their reconcilers: each recomputes its rows for `[fromHour, toHour)` (whole UTC
 * hours) from the raw rows and corrects the differences (inserts missing rows, fixes wrong ones, deletes rows
 * whose raw rows are gone), returning how many rows it fixed. Triggers keep the rollups right as facts are
 * written; this is the safety net, run by the runner's `dashboard-reconcile` task (runner/crontab.ts):
 *
 * - every 10 minutes over the last 48 hours (`recentHours`): what is being written now, cheap;
 * - once a day over the whole history (`history: true`, a second crontab entry): a restore, a load with
 *   triggers off, a hand edit of old rows.
 *
 * Each reconciler runs in its own REPEATABLE READ transaction, tried again on a serialization failure: a
 * trigger's change committed after the reconciler's snapshot then aborts it, instead of being overwritten by a
 * count that predates it.
 */
import { inRetriedTransaction } from '../../../core/db/retry';
import { useRepeatableRead } from '../repo-rollups';
import { durationDaysReconciler } from './durations-reconcile';
import { mailAiReconcilers } from './mail-ai-reconcile';
import type { RollupReconciler } from './reconciler';
import { reconcileRunHours } from './runs';

export type { RollupReconciler } from './reconciler';

/** Every rollup of the dashboard (the other rollups add their entry here). */
export const rollupReconcilers: RollupReconciler[] = [{ name: 'dashboard_run_hours', reconcile: reconcileRunHours }, durationDaysReconciler, ...mailAiReconcilers];

const hourMs = 3_600_000;
/** How far back the frequent pass looks. */
export const recentHours = 48;
/** The whole history: every fact is after this. */
const historyStart = new Date('1970-01-01T00:00:00Z');

export interface ReconcileResult {
  fromHour: Date;
  toHour: Date;
  /** Rows fixed per rollup. */
  fixed: Record<string, number>;
}

/**
 * Reconciles every rollup over the last 48 hours (or the whole history), up to the end of the current hour.
 * `reconcilers` defaults to the registry (tests pass one).
 */
export async function reconcileDashboardRollups(
  options: { history?: boolean; now?: Date; reconcilers?: RollupReconciler[] } = {},
): Promise<ReconcileResult> {
  const now = options.now ?? new Date();
  const toHour = new Date(Math.floor(now.getTime() / hourMs) * hourMs + hourMs);
  const fromHour = options.history ? historyStart : new Date(toHour.getTime() - (recentHours + 1) * hourMs);
  const fixed: Record<string, number> = {};
  for (const reconciler of options.reconcilers ?? rollupReconcilers) {
    fixed[reconciler.name] = await inRetriedTransaction(
      async (tx) => {
        await useRepeatableRead(tx);
        return reconciler.reconcile(tx, fromHour, toHour);
      },
      // The whole history is one statement over every run: seconds at a million runs, more on a loaded box.
      { timeout: options.history ? 600_000 : 60_000, attempts: 5 },
    );
  }
  return { fromHour, toHour, fixed };
}
