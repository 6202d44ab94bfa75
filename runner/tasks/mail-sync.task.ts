import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { dispatchMailWork } from '../mail/dispatch';
import { defineTask } from './define-task';

/** Bring a mailbox up to date now (connect, the member's "sync", a recovery): operations, then the delta. */
export const mailSyncTask = defineTask('mail.sync', jobCatalogue['mail.sync'], async ({ mailboxId }) => {
  await dispatchMailWork(mailboxId, { delta: true, operations: true });
});
