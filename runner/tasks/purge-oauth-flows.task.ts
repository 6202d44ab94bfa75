import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { purgeEndedOAuthFlows } from '../../server/domains/oauth';
import { defineTask } from './define-task';

export const purgeOAuthFlowsTask = defineTask(housekeepingTaskNames.purgeOAuthFlows, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeEndedOAuthFlows();
  if (deleted > 0) logger.info(`deleted ${deleted} ended OAuth flows`);
});
