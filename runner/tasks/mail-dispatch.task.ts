import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { dispatchNewMail } from '../../server/engine/dispatch/dispatch-mail';
import { defineTask } from './define-task';

/** Journals new mail of a mailbox and starts the workflows it matches, each message exactly once. */
export const mailDispatchTask = defineTask('mail.dispatch', jobCatalogue['mail.dispatch'], async ({ mailboxId }) => {
  await dispatchNewMail(mailboxId);
});
