/**
 * New mail handed to the workflow triggers: in the batch transaction that inserts a message ingested
 * as new mail (`delta`; never initial, backfill or resync), its row in mail_dispatch_queue and the
 * mailbox's `mail.dispatch` job. So a committed new message always reaches dispatch, a rolled-back one
 * never does, and a message written again after a crash is queued at most once (its journal entry,
 * unique per message, keeps it from being dispatched twice: server/engine/dispatch/dispatch-mail.ts).
 *
 * And a listed row the body pass has just filled, when a run waits for a reply in its thread: queued
 * `replies_only` (`queueFilledReplies`), it wakes that wait and starts nothing.
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
  await queueDispatchJob(tx, mailboxId);
}

/**
 * The mailbox's `mail.dispatch` job, in the transaction that queued its rows. A pending job keeps its run time (a
 * burst of new mail is one dispatch run); a running one is followed by a new job, which picks up what the running
 * one did not see.
 */
function queueDispatchJob(tx: RawSql, mailboxId: string): Promise<unknown> {
  return enqueue('mail.dispatch', { mailboxId }, { jobKey: jobKeys.dispatch(mailboxId), jobKeyMode: 'preserve_run_at' }, tx);
}

/**
 * Held, to its commit, by the transaction that fills listed rows and by the one that registers a wait for a reply
 * in the mailbox (server/engine/dispatch/reply-waits.ts), each before it looks at the other's table. A row listed
 * from its header carries no signals yet, so a wait registered meanwhile cannot judge it and leaves it to the fill;
 * with the two transactions in turn, whichever comes second sees what the first wrote: the filled row, or the wait.
 */
export async function holdReplyLook(tx: Pick<RawSql, '$executeRaw'>, mailboxId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`reply-look\n${mailboxId}`}, 0))`;
}

/**
 * In the body pass's transaction, after `filledIds` were filled: those a person other than the mailbox wrote (their
 * signals known now), in a thread some run waits on for a reply, are queued `replies_only`, so the dispatcher wakes
 * the wait as it would for new mail (journaling nothing, starting nothing). A mailbox without a wait, nearly every one
 * during its initial sync, costs the look-up of one index.
 */
export async function queueFilledReplies(tx: RawSql, mailboxId: string, filledIds: string[]): Promise<void> {
  if (filledIds.length === 0) return;
  await holdReplyLook(tx, mailboxId);
  const queued = await tx.$queryRawUnsafe<{ message_id: string }[]>(
    `WITH waits AS MATERIALIZED (SELECT thread_id, anchor_header, after_at FROM execution_reply_waits WHERE mailbox_id = $1::uuid)
     INSERT INTO mail_dispatch_queue (message_id, mailbox_id, replies_only)
     SELECT m.id, $1::uuid, true FROM mail_messages m
      WHERE EXISTS (SELECT 1 FROM waits)
        AND m.mailbox_id = $1::uuid AND m.id = ANY($2::uuid[]) AND m.thread_id IS NOT NULL
        AND NOT (m.is_from_self OR m.is_auto_reply OR m.is_bulk OR m.is_delivery_report OR m.is_no_reply OR m.draft)
        AND EXISTS (SELECT 1 FROM waits w
                     WHERE w.after_at <= m.received_at
                       AND (w.thread_id = m.thread_id
                         OR w.anchor_header IN (SELECT a.message_id_header FROM mail_messages a WHERE a.thread_id = m.thread_id)))
      ORDER BY m.received_at, m.id
     ON CONFLICT (message_id) DO NOTHING
     RETURNING message_id`,
    mailboxId,
    filledIds,
  );
  if (queued.length > 0) await queueDispatchJob(tx, mailboxId);
}
