import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { dispatchMailWork, recordResync } from '../mail/dispatch';
import { defineTask } from './define-task';

/** Re-read a past window silently: the window is recorded on the mailbox, the holder runs it. */
export const mailResyncTask = defineTask('mail.resync', jobCatalogue['mail.resync'], async ({ mailboxId, since }) => {
  await recordResync(mailboxId, new Date(since));
  await dispatchMailWork(mailboxId, { resync: true });
});
