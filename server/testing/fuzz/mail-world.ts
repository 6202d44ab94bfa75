/**
 * The fuzz's mail fixtures: a mailbox of the fixture member with a thread of two messages (one in the
 * inbox, one in trash, so every thread action has something to act on) and an attachment with content,
 * so fuzzed requests on threads, messages and attachments reach their handlers.
 */
import { db } from '../../core/db';
import { blobKeys, blobStore } from '../../core/storage/blob-store';
import type { TestMember } from '../factories';
import { createMailbox, createMessage } from '../mail-factories';

export async function buildMailPiece(member: TestMember): Promise<Record<string, unknown>> {
  const mailbox = await createMailbox(member);
  const first = await createMessage(mailbox, { subject: 'Fuzz alpha', hasAttachments: true });
  await createMessage(mailbox, { threadId: first.threadId!, subject: 'Re: Fuzz alpha', folderKey: 'Trash' });
  const content = Buffer.from('fuzz attachment');
  await blobStore().put(blobKeys.attachment(first.id, 1), content);
  await db().mailAttachment.create({
    data: { messageId: first.id, position: 1, filename: 'fuzz.txt', mime: 'text/plain', size: content.length, disposition: 'attachment', blobKey: blobKeys.attachment(first.id, 1) },
  });
  return { mailboxId: mailbox.id, threadId: first.threadId!, messageId: first.id };
}
