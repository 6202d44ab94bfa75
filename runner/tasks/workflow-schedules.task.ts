import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { startDueSchedules } from '../../server/engine/dispatch/schedules';
import { defineTask } from './define-task';

/** Every minute: starts the runs of schedule triggers that are due (each once, whatever the number of runners). */
export const workflowSchedulesTask = defineTask(housekeepingTaskNames.workflowSchedules, housekeepingPayload, async (_payload, { logger }) => {
  const started = await startDueSchedules();
  if (started > 0) logger.info(`started ${started} scheduled runs`);
});
