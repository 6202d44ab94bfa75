import { purgeOldTableWriteEffects } from '../../server/domains/tables';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { defineTask } from './define-task';

export const purgeTableWriteEffectsTask = defineTask(housekeepingTaskNames.purgeTableWriteEffects, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeOldTableWriteEffects();
  if (deleted > 0) logger.info(`deleted ${deleted} old table write effect records`);
});
