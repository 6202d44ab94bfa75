import { purgeOldRateLimitBuckets } from '../../server/core/housekeeping';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { defineTask } from './define-task';

export const purgeRateLimitBucketsTask = defineTask(housekeepingTaskNames.purgeRateLimitBuckets, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeOldRateLimitBuckets();
  if (deleted > 0) logger.info(`deleted ${deleted} old rate-limit buckets`);
});
