/**
 * An outbound item's attachments (its `attachments` JSON) as bytes, before anything is sent:
 * `upload` (an UploadedAttachment of the item's member → its blob), `message` (an attachment of a
 * mirrored message of the same member: its blob, or read from the provider on demand), `blob` (a
 * stored blob named by the item). A missing one fails the send permanently (`attachment_missing`); a
 * provider that cannot be reached right now is a retry.
 */
import { z } from 'zod';
import { db } from '../../core/db';
import { blobStore } from '../../core/storage/blob-store';
import { fetchMessageContent } from '../content';
import { SendError } from './errors';
import type { MimeAttachment } from './mime';

const attachmentRef = z.discriminatedUnion('source', [
  z.object({ source: z.literal('upload'), uploadId: z.uuid() }),
  z.object({ source: z.literal('message'), messageId: z.uuid(), position: z.number().int().min(0).max(100_000) }),
  z.object({ source: z.literal('blob'), blobKey: z.string().min(1).max(500), filename: z.string().max(500), mime: z.string().max(200), size: z.number().int().min(0).optional() }),
]);

const missing = (what: string) => new SendError({ outcome: 'failed', kind: 'attachment_missing', message: `An attachment is no longer available (${what}).` });

export async function resolveAttachments(item: { memberId: string; attachments: unknown }): Promise<MimeAttachment[]> {
  const list = Array.isArray(item.attachments) ? item.attachments : [];
  const resolved: MimeAttachment[] = [];
  for (const raw of list.slice(0, 100)) {
    const parsed = attachmentRef.safeParse(raw);
    if (!parsed.success) throw missing('unreadable reference');
    const ref = parsed.data;
    if (ref.source === 'upload') {
      const upload = await db().uploadedAttachment.findFirst({ where: { id: ref.uploadId, memberId: item.memberId } });
      const content = upload ? await blobStore().get(upload.blobKey) : null;
      if (!upload || !content) throw missing('upload');
      resolved.push({ filename: upload.filename, mime: upload.mime, content });
    } else if (ref.source === 'message') {
      const row = await db().mailAttachment.findFirst({
        where: { messageId: ref.messageId, position: ref.position, message: { mailbox: { memberId: item.memberId } } },
      });
      if (!row) throw missing('message attachment');
      const stored = row.blobKey ? await blobStore().get(row.blobKey) : null;
      if (stored) {
        resolved.push({ filename: row.filename, mime: row.mime, content: stored });
        continue;
      }
      const fetched = await fetchMessageContent(ref.messageId, { attachmentPosition: ref.position });
      if (fetched?.attachment) {
        resolved.push({ filename: row.filename, mime: row.mime, content: fetched.attachment.content });
        continue;
      }
      if (fetched?.failure && fetched.failure !== 'protocol') {
        throw new SendError({ outcome: 'retry', kind: 'unreachable', message: 'An attachment could not be read from the mailbox right now.' });
      }
      throw missing('message attachment');
    } else {
      const content = await blobStore().get(ref.blobKey);
      if (!content) throw missing('stored file');
      resolved.push({ filename: ref.filename || 'attachment', mime: ref.mime || 'application/octet-stream', content });
    }
  }
  return resolved;
}
