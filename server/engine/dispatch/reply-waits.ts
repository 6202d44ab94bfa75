/**
 * Waiting for a reply (flow.wait_for_reply, issue 24 §1), durable and event-driven: no loop polls the
 * waiting runs.
 *
 * - **Registered with the suspension.** A step that suspends with `watchReplies` is written `waiting`
 *   and registered here (`execution_reply_waits`, keyed by run and node, found by mailbox) in ONE
 *   transaction (run/run-step.ts → `registerReplyWait`): a runner killed right after leaves both or
 *   neither. The same transaction looks for a reply already in the mirror (one that arrived between the
 *   message waited on and the wait), so none is missed: the mirror writes a message before it queues it
 *   for dispatch, hence a reply whose dispatch ran before the registration was visible is seen by this
 *   look, and one dispatched after it sees the registration.
 * - **Woken by the dispatcher.** When dispatch-mail.ts journals a message, in the same transaction,
 *   `wakeReplyWaits` takes the registrations of that thread and resumes their steps through the
 *   engine's decision path (run/resume.ts: the reply is stored on the step, the run goes back to
 *   `queued` and its advance job is added), so the reply's journal entry and the wake-up commit
 *   together. The wait's deadline is the run's ordinary timer (`wait_until`); the waiting run holds no
 *   slot, as every `waiting` run.
 * - **A reply** is a message of the thread (the thread the message waited on was in, or the one a
 *   message with its Message-ID is in now: a merge or a move keeps it), received at or after the
 *   message waited on, other than that message, that a person other than the mailbox wrote: not from
 *   the mailbox itself, not an auto-reply, a delivery report, bulk mail or from a no-reply sender (the
 *   ingest signals), not a draft, and not from a sender the member's or the organisation's exclusions
 *   keep out of workflows. The step receives it as a mail trigger gives a message (`summaryOf`, without
 *   the sender's card).
 * - **A row listed from its header** (a large initial sync's, `body_pending`) has no signals yet: the
 *   registration's look passes it over, and the body pass, once it has filled it, queues it for the
 *   dispatcher to wake the waits it answers (`replies_only`: no journal entry, no run started;
 *   server/mail/mirror/dispatch-queue.ts). Both hold the mailbox's `holdReplyLook` lock before they look,
 *   so a fill and a registration at the same moment cannot both miss the other.
 * - **Dropped** when the step ends otherwise (its timer: run-step.ts), when its run fails or is
 *   cancelled (run/finish.ts, run/cancel.ts), and with the run or the mailbox (foreign keys).
 */
import type { Tx } from '../../core/db';
import { holdReplyLook } from '../../mail/mirror/dispatch-queue';
import { resumeWithDecision } from '../run/resume';
import { storeDecision } from '../run/step-rows';
import { loadMessage, senderExclusionOf, summaryOf, type QueuedMessage } from './mail-message';

/** What a step resumed by a reply receives (`resume.payload`). */
export interface ReplyDecision {
  kind: 'reply';
  reply: Record<string, unknown>;
}

/** Whether a person other than the mailbox wrote the message (the ingest signals). */
export function isPersonsReply(message: Pick<QueuedMessage, 'isFromSelf' | 'isAutoReply' | 'isBulk' | 'isDeliveryReport' | 'isNoReply'>): boolean {
  return !(message.isFromSelf || message.isAutoReply || message.isBulk || message.isDeliveryReport || message.isNoReply);
}

/** Candidates of an earlier reply looked at when a wait is registered (the first a person wrote wins). */
const earlierCandidates = 20;

async function replyDecisionOf(tx: Tx, message: QueuedMessage): Promise<ReplyDecision> {
  // The reply as a mail trigger gives a message; the sender's card is the trigger's choice, not the wait's.
  return { kind: 'reply', reply: { ...(await summaryOf(tx, message, false)) } };
}

/**
 * Registers the step's wait for a reply in the thread of `messageId` (the member's message; nothing is
 * registered for another's or a message gone since, and the wait then ends at its deadline), in the
 * transaction that saves the step `waiting`. A reply already in the mirror resumes it at once (stored on
 * the step; the advancer holding the run sees it at its next look) and nothing stays registered.
 */
export async function registerReplyWait(tx: Tx, wait: { executionId: string; memberId: string; nodeId: string; stepId: string; messageId: string }): Promise<void> {
  const [registered] = await tx.$queryRaw<{ mailbox_id: string; thread_id: string | null; anchor_header: string | null; after_at: Date }[]>`
    INSERT INTO execution_reply_waits (execution_id, node_id, mailbox_id, thread_id, anchor_message_id, anchor_header, after_at)
    SELECT ${wait.executionId}::uuid, ${wait.nodeId}, m.mailbox_id, m.thread_id, m.id, m.message_id_header, m.received_at
      FROM mail_messages m JOIN mailboxes b ON b.id = m.mailbox_id
     WHERE m.id = ${wait.messageId}::uuid AND b.member_id = ${wait.memberId}::uuid
    ON CONFLICT (execution_id, node_id) DO UPDATE
      SET mailbox_id = excluded.mailbox_id, thread_id = excluded.thread_id, anchor_message_id = excluded.anchor_message_id,
          anchor_header = excluded.anchor_header, after_at = excluded.after_at
    RETURNING mailbox_id, thread_id, anchor_header, after_at`;
  if (!registered) return;
  // A row still listed from its header has no signals to judge it by: the body pass's fill queues it once they are
  // known, and this lock makes the fill see this registration, or this look see the filled row.
  await holdReplyLook(tx, registered.mailbox_id);
  const candidates = await tx.$queryRaw<{ id: string }[]>`
    SELECT r.id FROM mail_messages r
     WHERE r.mailbox_id = ${registered.mailbox_id}::uuid
       AND r.id <> ${wait.messageId}::uuid
       AND NOT r.body_pending
       AND r.received_at >= ${registered.after_at}
       AND (${registered.anchor_header}::text IS NULL OR r.message_id_header IS DISTINCT FROM ${registered.anchor_header}::text)
       AND NOT (r.is_from_self OR r.is_auto_reply OR r.is_bulk OR r.is_delivery_report OR r.is_no_reply OR r.draft)
       AND (r.thread_id = ${registered.thread_id}::uuid
         OR r.thread_id IN (SELECT a.thread_id FROM mail_messages a
                             WHERE a.mailbox_id = ${registered.mailbox_id}::uuid AND a.message_id_header = ${registered.anchor_header}::text))
     ORDER BY r.received_at, r.id
     LIMIT ${earlierCandidates}`;
  for (const candidate of candidates) {
    const message = await loadMessage(tx, candidate.id);
    if (!message || (await senderExclusionOf(tx, message.memberId, message.fromEmail))) continue;
    await storeDecision(tx, wait.stepId, await replyDecisionOf(tx, message));
    await dropReplyWait(tx, wait.executionId, wait.nodeId);
    return;
  }
}

/**
 * The dispatcher's half, in the transaction that journals `message`: when a person other than the
 * mailbox wrote it, takes the registrations of its thread that it answers and resumes their steps with
 * it. Answers how many waits it ended. Found by (mailbox, thread) or (mailbox, Message-ID waited on),
 * both indexed, the thread's Message-IDs read once: nearly every message finds no registration, cheaply.
 */
export async function wakeReplyWaits(tx: Tx, message: QueuedMessage): Promise<number> {
  if (!message.threadId || !isPersonsReply(message)) return 0;
  const taken = await tx.$queryRaw<{ execution_id: string; node_id: string }[]>`
    DELETE FROM execution_reply_waits w
     WHERE w.mailbox_id = ${message.mailboxId}::uuid
       AND w.after_at <= ${message.receivedAt}
       AND w.anchor_message_id <> ${message.id}::uuid
       AND (w.anchor_header IS NULL OR w.anchor_header IS DISTINCT FROM ${message.messageIdHeader}::text)
       AND (w.thread_id = ${message.threadId}::uuid
         OR w.anchor_header IN (SELECT a.message_id_header FROM mail_messages a
                                 WHERE a.thread_id = ${message.threadId}::uuid AND a.message_id_header IS NOT NULL))
    RETURNING w.execution_id, w.node_id`;
  if (taken.length === 0) return 0;
  const decision = await replyDecisionOf(tx, message);
  let woken = 0;
  for (const wait of taken) {
    if (await resumeWithDecision({ executionId: wait.execution_id, nodeId: wait.node_id, decision }, tx)) woken += 1;
  }
  return woken;
}

/** The step's wait for a reply is over (it ended otherwise): nothing of it stays registered. */
export async function dropReplyWait(tx: Pick<Tx, '$executeRaw'>, executionId: string, nodeId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM execution_reply_waits WHERE execution_id = ${executionId}::uuid AND node_id = ${nodeId}`;
}

/** The runs ended (failed, cancelled): their waits for a reply are dropped. */
export async function dropReplyWaitsOfRuns(tx: Pick<Tx, '$executeRaw'>, executionIds: readonly string[]): Promise<void> {
  if (executionIds.length === 0) return;
  await tx.$executeRaw`DELETE FROM execution_reply_waits WHERE execution_id = ANY(${[...executionIds]}::uuid[])`;
}
