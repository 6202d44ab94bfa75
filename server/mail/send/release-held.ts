/**
 * Sends held because their mailbox was not connected (`held`, `mailbox_not_active`) go back to
 * `pending` with their job when the mailbox is active again (called where the mailboxes domain
 * reconnects a mailbox, in its transaction). Holds of the blast-radius guard are not touched.
 */
import type { Tx } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { emitToMember } from '../../core/realtime/emit';

export async function releaseMailboxHeldSends(mailboxId: string, tx: Tx): Promise<number> {
  const rows = await tx.$queryRaw<{ id: string; member_id: string; mailbox_id: string }[]>`
    UPDATE outbound_messages SET send_status = 'pending', send_error_kind = NULL, send_error_message = NULL, updated_at = now()
     WHERE mailbox_id = ${mailboxId}::uuid AND send_status = 'held' AND send_error_kind = 'mailbox_not_active' AND hold_id IS NULL
    RETURNING id, member_id, mailbox_id`;
  for (const row of rows) {
    await tx.sendingJournalEntry.create({
      data: { memberId: row.member_id, outboundId: row.id, mailboxId: row.mailbox_id, event: 'released', reason: 'mailbox_active' },
    });
    await enqueue('mail.send', { outboundId: row.id }, { jobKey: jobKeys.send(row.id) }, tx);
    await emitToMember(row.member_id, 'outbound.changed', { outboundId: row.id, mailboxId: row.mailbox_id, sendStatus: 'pending' }, tx);
  }
  return rows.length;
}
