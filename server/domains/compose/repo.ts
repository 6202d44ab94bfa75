/** Compose's reads: the member's mailbox, a message with what an answer needs, uploads and attachments. */
import type { db, Tx } from '../../core/db';
import { addressesOf, recordOf } from '../mail';
import type { OriginalMessage } from './context';
import { isUuid } from '../../core/ids';

/** Kept for the engine's capabilities, which read it here (their imports are the engine's to move). */

export async function memberMailbox(tx: Tx | ReturnType<typeof db>, memberId: string, mailboxId: string) {
  if (!isUuid(mailboxId)) return null;
  return tx.mailbox.findFirst({ where: { id: mailboxId, memberId }, select: { id: true, address: true, status: true } });
}

/** A message of the member's mirror with what an answer needs, or null. */
export async function memberOriginal(tx: Tx, memberId: string, messageId: string): Promise<(OriginalMessage & { mailboxId: string; mailboxAddress: string }) | null> {
  if (!isUuid(messageId)) return null;
  const row = await tx.mailMessage.findFirst({
    where: { id: messageId, mailbox: { memberId } },
    select: {
      id: true,
      mailboxId: true,
      subject: true,
      fromName: true,
      fromEmail: true,
      dateHeader: true,
      receivedAt: true,
      bodyText: true,
      recipients: true,
      mailbox: { select: { address: true } },
      attachments: { select: { position: true, filename: true, mime: true, size: true }, orderBy: { position: 'asc' } },
    },
  });
  if (!row) return null;
  const recipients = recordOf(row.recipients);
  return {
    id: row.id,
    mailboxId: row.mailboxId,
    mailboxAddress: row.mailbox.address,
    subject: row.subject,
    fromName: row.fromName,
    fromEmail: row.fromEmail,
    dateHeader: row.dateHeader,
    receivedAt: row.receivedAt,
    bodyText: row.bodyText,
    recipients: { to: addressesOf(recipients.to), cc: addressesOf(recipients.cc), replyTo: addressesOf(recipients.replyTo) },
    attachments: row.attachments,
  };
}

/** The member's upload if it exists, has not expired and no outbound message of theirs uses it (a cancelled one frees it). */
export async function usableUpload(tx: Tx, memberId: string, uploadId: string, now: Date): Promise<'ok' | 'missing' | 'used'> {
  const upload = await tx.uploadedAttachment.findFirst({ where: { id: uploadId, memberId, expiresAt: { gt: now } }, select: { id: true } });
  if (!upload) return 'missing';
  const used = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM outbound_messages
     WHERE member_id = ${memberId}::uuid AND send_status <> 'cancelled' AND attachments @> ${JSON.stringify([{ source: 'upload', uploadId }])}::jsonb`;
  return (used[0]?.n ?? 0) > 0 ? 'used' : 'ok';
}

/** Whether the message is the member's and has an attachment at `position`. */
export async function memberAttachmentExists(tx: Tx, memberId: string, messageId: string, position: number): Promise<boolean> {
  const found = await tx.mailAttachment.findFirst({ where: { messageId, position, message: { mailbox: { memberId } } }, select: { id: true } });
  return found !== null;
}

/** The member's outbound item already made with this dedupe key (a repeated compose request), or null. */
export function findByDedupeKey(tx: Tx, memberId: string, dedupeKey: string) {
  return tx.outboundMessage.findUnique({ where: { memberId_dedupeKey: { memberId, dedupeKey } } });
}

/** Locks the member's webmail send (FOR UPDATE); false when there is none. */
export async function lockWebmailSend(tx: Tx, memberId: string, id: string): Promise<boolean> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM outbound_messages WHERE id = ${id}::uuid AND member_id = ${memberId}::uuid AND origin = 'webmail' FOR UPDATE`;
  return locked.length > 0;
}

export function findOutboundOrThrow(tx: Tx, id: string) {
  return tx.outboundMessage.findUniqueOrThrow({ where: { id } });
}

/**
 * Undoes a send: the item goes `cancelled`, the sending journal says so (reason `undo`), and its send job is
 * removed from the queue (`jobKey`). In this order, in the caller's transaction; answers the cancelled item.
 */
export async function cancelSendForUndo(tx: Tx, item: { id: string; memberId: string; mailboxId: string }, jobKey: string) {
  const updated = await tx.outboundMessage.update({ where: { id: item.id }, data: { sendStatus: 'cancelled' } });
  await tx.sendingJournalEntry.create({ data: { memberId: item.memberId, outboundId: item.id, mailboxId: item.mailboxId, event: 'cancelled', reason: 'undo' } });
  await tx.$executeRaw`SELECT graphile_worker.remove_job(${jobKey}::text)`;
  return updated;
}
