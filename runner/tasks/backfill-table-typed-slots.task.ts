import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { backfillTypedSlots } from '../../server/domains/tables';
import { defineTask } from './define-task';

export const backfillTableTypedSlotsTask = defineTask(housekeepingTaskNames.backfillTableTypedSlots, housekeepingPayload, async (_payload, { logger }) => {
  const tables = await backfillTypedSlots();
  if (tables > 0) logger.info(`gave typed slots to ${tables} tables`);
});
