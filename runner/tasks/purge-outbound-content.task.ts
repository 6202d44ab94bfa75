import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { purgeOutboundContent } from '../../server/domains/outbound';
import { defineTask } from './define-task';

/** Drops the content of finished outbound messages past their retention. */
export const purgeOutboundContentTask = defineTask(housekeepingTaskNames.purgeOutboundContent, housekeepingPayload, async (_payload, { logger }) => {
  const purged = await purgeOutboundContent();
  if (purged > 0) logger.info(`dropped the content of ${purged} finished outbound messages`);
});
