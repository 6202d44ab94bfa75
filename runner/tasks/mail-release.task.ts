import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { dispatchMailWork } from '../mail/dispatch';
import { defineTask } from './define-task';

/** A mailbox was disconnected or deleted: whichever runner holds it stops its watch and gives the lease back. */
export const mailReleaseTask = defineTask('mail.release', jobCatalogue['mail.release'], async ({ mailboxId }) => {
  await dispatchMailWork(mailboxId, { release: true });
});
