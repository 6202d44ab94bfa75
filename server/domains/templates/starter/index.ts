/** The starter catalogue: the templates the instance ships, upserted by slug at runner start. */
import { alertOnWorkflowFailures } from './alert-on-workflow-failures';
import { approveBeforeAnswering } from './approve-before-answering';
import { extractInvoicesIntoATable } from './extract-invoices-into-a-table';
import { flagImportantSenders } from './flag-important-senders';
import { followUpAfterThreeDays } from './follow-up-after-three-days';
import { forwardWebhookEventsAsMail } from './forward-webhook-events-as-mail';
import { labelAndArchiveNewsletters } from './label-and-archive-newsletters';
import { outOfHoursReply } from './out-of-hours-reply';
import { tagKnownCustomers } from './tag-known-customers';
import type { StarterTemplate } from './types';
import { weeklyFolderReview } from './weekly-folder-review';

export type { StarterTemplate } from './types';

export const starterTemplates: readonly StarterTemplate[] = [
  labelAndArchiveNewsletters,
  followUpAfterThreeDays,
  extractInvoicesIntoATable,
  approveBeforeAnswering,
  forwardWebhookEventsAsMail,
  alertOnWorkflowFailures,
  weeklyFolderReview,
  outOfHoursReply,
  flagImportantSenders,
  tagKnownCustomers,
];
