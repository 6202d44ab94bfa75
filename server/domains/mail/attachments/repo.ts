/** The queries of uploaded attachments (a member's file waiting to be attached to a draft). */
import type { Tx } from '../../../core/db';
import type { Prisma } from '../../../generated/prisma/client';

export function insertUploadedAttachment(tx: Tx, data: Prisma.UploadedAttachmentUncheckedCreateInput) {
  return tx.uploadedAttachment.create({ data });
}
