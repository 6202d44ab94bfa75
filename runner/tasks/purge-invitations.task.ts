import { purgeStaleInvitations } from '../../server/domains/members';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { defineTask } from './define-task';

export const purgeInvitationsTask = defineTask(housekeepingTaskNames.purgeInvitations, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeStaleInvitations();
  if (deleted > 0) logger.info(`deleted ${deleted} stale invitations`);
});
