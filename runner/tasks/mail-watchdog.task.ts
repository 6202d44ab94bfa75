import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { runMailWatchdog } from '../mail/watchdog';
import { defineTask } from './define-task';

/** Every minute: silent mailboxes are marked stalled (one `mailbox.stalled`), recovered ones cleared. */
export const mailWatchdogTask = defineTask(housekeepingTaskNames.mailWatchdog, housekeepingPayload, async () => {
  await runMailWatchdog();
});
