import { purgeExpiredIdempotencyRecords } from '../../server/core/housekeeping';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { defineTask } from './define-task';

export const purgeIdempotencyRecordsTask = defineTask(housekeepingTaskNames.purgeIdempotencyRecords, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeExpiredIdempotencyRecords();
  if (deleted > 0) logger.info(`deleted ${deleted} expired idempotency records`);
});
