import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { purgeWebhookDeliveries } from '../../server/engine/dispatch/webhook';
import { defineTask } from './define-task';

/** Forgets inbound webhook `Idempotency-Key`s older than 24 hours. */
export const purgeWebhookDeliveriesTask = defineTask(housekeepingTaskNames.purgeWebhookDeliveries, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeWebhookDeliveries();
  if (deleted > 0) logger.info(`deleted ${deleted} expired webhook deliveries`);
});
