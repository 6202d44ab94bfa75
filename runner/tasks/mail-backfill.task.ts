import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { dispatchMailWork, markBackfillPending } from '../mail/dispatch';
import { defineTask } from './define-task';

/** Mirror older mail down to the mailbox's backfillSince, in budgets between deltas. */
export const mailBackfillTask = defineTask('mail.backfill', jobCatalogue['mail.backfill'], async ({ mailboxId }) => {
  await markBackfillPending(mailboxId);
  await dispatchMailWork(mailboxId, { backfill: true });
});
