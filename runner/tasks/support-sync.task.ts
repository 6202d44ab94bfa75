import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { syncSupport } from '../../server/domains/support';
import { defineTask } from './define-task';

/** Queued by a member's support write (key `support-sync`): one exchange with the control plane now. */
export const supportSyncTask = defineTask('support.sync', jobCatalogue['support.sync'], async () => {
  await syncSupport();
});

/** Every minute: the same exchange (a no-op when the instance is not linked). */
export const supportSyncIntervalTask = defineTask(housekeepingTaskNames.supportSyncInterval, housekeepingPayload, async () => {
  await syncSupport();
});
