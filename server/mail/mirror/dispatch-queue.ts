/**
 * New mail handed to the workflow triggers: in the batch transaction that inserts a message ingested
 * as new mail (`delta`; never initial, backfill or resync), its row in mail_dispatch_queue and the
 * mailbox's `mail.dispatch` job. So a committed new message always reaches dispatch, a rolled-back one
 * never does, and a message written again after a crash is queued at most once (its journal entry,
 * unique per message, keeps it from being dispatched twice: server/engine/dispatch/dispatch-mail.ts).
 */
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import type { RawSql } from './pg-transaction';

export async function queueForDispatch(tx: RawSql, mailboxId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await tx.$executeRawUnsafe(
    // WITH ORDINALITY: `position` (a sequence) follows the array's order, the mail's arrival order.
    `INSERT INTO mail_dispatch_queue (message_id, mailbox_id)
     SELECT queued.id, $1::uuid FROM unnest($2::uuid[]) WITH ORDINALITY AS queued(id, arrival) ORDER BY queued.arrival
     ON CONFLICT (message_id) DO NOTHING`,
    mailboxId,
    messageIds,
  );
  // A pending job keeps its run time (a burst of new mail is one dispatch run); a running one is
  // followed by a new job, which picks up what the running one did not see.
  await enqueue('mail.dispatch', { mailboxId }, { jobKey: jobKeys.dispatch(mailboxId), jobKeyMode: 'preserve_run_at' }, tx);
}
