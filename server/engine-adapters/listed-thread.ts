/**
 * A conversation a workflow reads (mail.read_thread, an AI node's thread context) whose messages a large first sync
 * listed from their headers and the body pass has not reached yet: they are filled first, as opening them would,
 * so the run reads their text, preview and signals (an out-of-office is then known as one, and `awaitingReply`
 * does not take it for an answer) rather than empty rows. It takes a run started by new mail in the first minutes of
 * a large mailbox's sync, in a thread whose older messages the pass (newest first) has not reached.
 */
import { db } from '../core/db';
import { completeListedMessages } from '../mail/content';

/** The thread of the member's message `messageId` (or the message alone, threadless): its `limit` latest listed rows filled. */
export async function fillListedRowsOfThread(memberId: string, messageId: string, limit: number): Promise<void> {
  const listed = await db().$queryRaw<{ id: string }[]>`
    SELECT t.id FROM mail_messages m
      JOIN mailboxes b ON b.id = m.mailbox_id AND b.member_id = ${memberId}::uuid
      JOIN mail_messages t ON t.mailbox_id = m.mailbox_id AND (t.thread_id = m.thread_id OR t.id = m.id)
     WHERE m.id = ${messageId}::uuid AND t.body_pending
     ORDER BY t.received_at DESC, t.id DESC
     LIMIT ${Math.max(1, Math.min(limit, 50))}::int`;
  if (listed.length > 0) await completeListedMessages(listed.map((row) => row.id));
}
