import { purgeExpiredUploads } from '../../server/domains/mail';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { defineTask } from './define-task';

export const purgeUploadedAttachmentsTask = defineTask(housekeepingTaskNames.purgeUploadedAttachments, housekeepingPayload, async (_payload, { logger }) => {
  const deleted = await purgeExpiredUploads();
  if (deleted > 0) logger.info(`deleted ${deleted} expired uploaded attachments`);
});
