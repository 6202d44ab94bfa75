/** Uploads no draft or send used within their lifetime are removed with their content. */
import { db } from '../../../core/db';
import { blobStore } from '../../../core/storage/blob-store';

export async function purgeExpiredUploads(now = new Date(), batch = 500): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = await db().uploadedAttachment.findMany({ where: { expiresAt: { lte: now } }, select: { id: true, blobKey: true }, take: batch });
    if (expired.length === 0) return removed;
    await db().$transaction(async (tx) => {
      await blobStore().delete(expired.map((upload) => upload.blobKey), tx);
      await tx.uploadedAttachment.deleteMany({ where: { id: { in: expired.map((upload) => upload.id) } } });
    });
    removed += expired.length;
    if (expired.length < batch) return removed;
  }
}
