import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { placeDraft } from '../../server/mail/send/drafts';
import { defineTask } from './define-task';

/** Place a draft item waiting for review in its mailbox's Drafts folder (IMAP; others keep drafts in the app). */
export const mailPlaceDraftTask = defineTask('mail.place-draft', jobCatalogue['mail.place-draft'], async ({ outboundId }) => {
  await placeDraft(outboundId);
});
