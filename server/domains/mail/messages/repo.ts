/** A message of the member, with its attachments. */
import { db } from '../../../core/db';

const withAttachments = { attachments: { orderBy: { position: 'asc' } } } as const;

/** The message when it is in one of the member's mailboxes; null otherwise. */
export function findMemberMessage(memberId: string, messageId: string) {
  return db().mailMessage.findFirst({ where: { id: messageId, mailbox: { memberId } }, include: withAttachments });
}

export type MemberMessage = NonNullable<Awaited<ReturnType<typeof findMemberMessage>>>;

export function findMemberAttachment(memberId: string, messageId: string, position: number) {
  return db().mailAttachment.findFirst({
    where: { messageId, position, message: { mailbox: { memberId } } },
    select: { id: true, filename: true, mime: true, size: true, blobKey: true },
  });
}
