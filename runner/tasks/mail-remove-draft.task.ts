import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { removeDraft } from '../../server/mail/send/drafts';
import { defineTask } from './define-task';

/** Delete the placed draft of an item sent or rejected through the review. */
export const mailRemoveDraftTask = defineTask('mail.remove-draft', jobCatalogue['mail.remove-draft'], async ({ outboundId }) => {
  await removeDraft(outboundId);
});
