import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { dispatchMailWork } from '../mail/dispatch';
import { defineTask } from './define-task';

/** Apply the mailbox's pending webmail operations (mail_operations) to the real mailbox. */
export const mailApplyOperationsTask = defineTask('mail.apply-operations', jobCatalogue['mail.apply-operations'], async ({ mailboxId }) => {
  await dispatchMailWork(mailboxId, { operations: true });
});
