/** A message of the member, with its attachments. */
import { db, type Tx } from '../../../core/db';

const withAttachments = { attachments: { orderBy: { position: 'asc' } } } as const;

/** The message when it is in one of the member's mailboxes; null otherwise. */
export function findMemberMessage(memberId: string, messageId: string) {
  return db().mailMessage.findFirst({ where: { id: messageId, mailbox: { memberId } }, include: withAttachments });
}

export type MemberMessage = NonNullable<Awaited<ReturnType<typeof findMemberMessage>>>;

/** A member's message's attachment rows (metadata) in MIME order; null when the message is not the member's. */
export async function findMemberAttachmentRows(memberId: string, messageId: string) {
  const message = await db().mailMessage.findFirst({
    where: { id: messageId, mailbox: { memberId } },
    select: { attachments: { orderBy: { position: 'asc' }, take: 1_000, select: { position: true, filename: true, mime: true, size: true } } },
  });
  return message?.attachments ?? null;
}

export function findMemberAttachment(memberId: string, messageId: string, position: number) {
  return db().mailAttachment.findFirst({
    where: { messageId, position, message: { mailbox: { memberId } } },
    select: { id: true, filename: true, mime: true, size: true, blobKey: true },
  });
}

/**
 * The headlines other domains show beside their rows (an approval's triggering message), read at once for a page:
 * only messages in the given members' mailboxes. `reader` is the caller's transaction when it has one.
 */
export function findMessageHeadlines(ids: string[], memberIds: string[], reader: Pick<Tx, 'mailMessage'> = db()) {
  return reader.mailMessage.findMany({
    where: { id: { in: ids }, mailbox: { memberId: { in: memberIds } } },
    select: { id: true, fromName: true, fromEmail: true, subject: true, receivedAt: true },
  });
}

/** The subject of a message in one of the member's mailboxes (id and subject); null otherwise. */
export function findMemberMessageSubject(memberId: string, messageId: string) {
  return db().mailMessage.findFirst({ where: { id: messageId, mailbox: { memberId } }, select: { id: true, subject: true } });
}
