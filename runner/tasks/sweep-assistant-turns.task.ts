import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { sweepInterruptedTurns } from '../../server/domains/assistant';
import { defineTask } from './define-task';

export const sweepAssistantTurnsTask = defineTask(housekeepingTaskNames.sweepAssistantTurns, housekeepingPayload, async (_payload, { logger }) => {
  const settled = await sweepInterruptedTurns();
  if (settled > 0) logger.info(`settled ${settled} interrupted assistant turns`);
});
