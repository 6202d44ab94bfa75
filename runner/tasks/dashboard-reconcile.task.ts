import { dashboardReconcilePayload, housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { foldRunRollupIncrements, reconcileDashboardRollups } from '../../server/domains/dashboard';
import { defineTask } from './define-task';

/** The dashboard's rollups recomputed from raw rows and corrected: the last 48 hours, or (daily) the whole history. */
export const dashboardReconcileTask = defineTask(housekeepingTaskNames.dashboardReconcile, dashboardReconcilePayload, async (payload, { logger }) => {
  const started = performance.now();
  const result = await reconcileDashboardRollups({ history: payload.history === true });
  const fixed = Object.entries(result.fixed).filter(([, count]) => count > 0);
  const span = payload.history ? 'the whole history' : `${result.fromHour.toISOString()} to ${result.toHour.toISOString()}`;
  const took = `${Math.round(performance.now() - started)} ms`;
  if (fixed.length > 0) logger.warn(`dashboard rollups fixed over ${span} in ${took}: ${fixed.map(([name, count]) => `${name} ${count} rows`).join(', ')}`);
  else logger.info(`dashboard rollups agree with their raw rows over ${span} (${took})`);
});

/** The runs' pending dashboard increments moved into their rollups (every minute; the figures read both, so none changes). */
export const dashboardFoldTask = defineTask(housekeepingTaskNames.dashboardFold, housekeepingPayload, async () => {
  await foldRunRollupIncrements();
});
