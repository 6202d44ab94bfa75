/** The outbound messages' queries (create.ts names them; housekeeping.ts purges on its own). */
import type { Tx } from '../../core/db';
import type { Prisma } from '../../generated/prisma/client';

/** The member's item already made under this dedupe key, if any. */
export function findByDedupeKey(tx: Tx, memberId: string, dedupeKey: string) {
  return tx.outboundMessage.findUnique({ where: { memberId_dedupeKey: { memberId, dedupeKey } } });
}

export function mailboxAddressOf(tx: Tx, mailboxId: string) {
  return tx.mailbox.findUniqueOrThrow({ where: { id: mailboxId }, select: { address: true } });
}

/** The message an item answers or forwards, when it is one of that mailbox's. */
export function relatedMessageOf(tx: Tx, messageId: string, mailboxId: string) {
  return tx.mailMessage.findFirst({
    where: { id: messageId, mailboxId },
    select: { id: true, threadId: true, messageIdHeader: true, references: true, inReplyTo: true },
  });
}

export function insertOutbound(tx: Tx, data: Prisma.OutboundMessageUncheckedCreateInput) {
  return tx.outboundMessage.create({ data });
}
