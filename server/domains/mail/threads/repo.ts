/** A thread and its messages, read only within the member's mailboxes. */
import type { MessageSummaryRow } from '../present';
import { messageSummaryColumns } from '../messages/list-statement';
import { runStatement } from '../repo';
import { threadColumns } from './list-statement';
import type { ThreadRow } from './present';

/** The thread when it is in one of the member's mailboxes and has messages; null otherwise. */
export async function findMemberThread(memberId: string, threadId: string): Promise<ThreadRow | null> {
  const [row] = await runStatement<ThreadRow>({
    text: `SELECT ${threadColumns}, f.draft, f.sent
             FROM mail_threads t JOIN mailboxes b ON b.id = t.mailbox_id
             CROSS JOIN LATERAL (SELECT coalesce(bool_or(m.draft), false) AS draft, coalesce(bool_or(m.sent), false) AS sent
                                   FROM mail_messages m WHERE m.thread_id = t.id) f
            WHERE t.id = $1::uuid AND b.member_id = $2::uuid AND t.message_count > 0`,
    values: [threadId, memberId],
  });
  return row ?? null;
}

/** The thread's messages in reading order (oldest first). */
export function threadMessages(threadId: string): Promise<MessageSummaryRow[]> {
  return runStatement<MessageSummaryRow>({
    text: `SELECT ${messageSummaryColumns} FROM mail_messages m WHERE m.thread_id = $1::uuid ORDER BY m.received_at, m.id`,
    values: [threadId],
  });
}
