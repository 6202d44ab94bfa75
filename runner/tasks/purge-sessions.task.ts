import { purgeEndedSessions } from '../../server/domains/auth';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { defineTask } from './define-task';

export const purgeSessionsTask = defineTask(housekeepingTaskNames.purgeSessions, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeEndedSessions();
  if (deleted > 0) logger.info(`deleted ${deleted} ended sessions`);
});
