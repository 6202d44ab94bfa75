import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { purgeArchivedNotifications } from '../../server/domains/notifications';
import { defineTask } from './define-task';

export const purgeArchivedNotificationsTask = defineTask(housekeepingTaskNames.purgeArchivedNotifications, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeArchivedNotifications();
  if (deleted > 0) logger.info(`deleted ${deleted} notifications archived more than 90 days ago`);
});
