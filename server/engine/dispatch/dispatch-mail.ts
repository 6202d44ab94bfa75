/**
 * New mail to workflows: each message of mail_dispatch_queue gets exactly one journal entry (spec:
 * messages journal) and starts the member's matching workflows.
 *
 * One transaction per message: it takes the oldest queued row of the mailbox (FOR UPDATE SKIP LOCKED,
 * so concurrent dispatchers share the queue), deletes it, decides the outcome, writes the journal
 * entry (unique per message: a message queued again after a crash, or handled by two dispatchers at
 * once, is journaled once and starts nothing the second time) and starts the runs. A crash before
 * the commit leaves the queue row in place; after it, the entry exists: never lost, never twice.
 *
 * The outcome, in this order: the organisation's exclusions (`excluded_org`, ruleRef
 * `exclusion:<id>`), the member's (`excluded_member`), mail from the mailbox itself (`guardrail`,
 * `guardrail:from_self`, the loop guard: nothing starts), then the member's live mail workflows that
 * match (`dispatched`). When none starts: `unmatched` if some live trigger let the message's kind
 * through and only its filters did not match; else, for mail of a guarded kind, `guardrail` with the
 * guardrail that kept it from the oldest live trigger (with none, the first kind that applies):
 * `guardrail:delivery_report` (bounce, read receipt), `…:auto_reply`, `…:no_reply`,
 * `…:mailing_list`, `…:bulk` (`includeAutoReplies` lets the first two through, `includeMailingLists`
 * the last two; mail-trigger.node.ts `mailGuardrailOf`); anything else `unmatched`.
 *
 * In the same transaction, a message that is a reply in a thread some run waits on (flow.wait_for_reply)
 * resumes that run (./reply-waits.ts), whatever the outcome but an exclusion. A row queued `replies_only`
 * (a listed row the body pass filled, not new mail) does only that: no journal entry, no run.
 *
 * A workflow that runs one at a time per key starts its run under the message's key (./serial-key.ts);
 * with a burst window the message may join the key's run that has not started yet (./bursts.ts).
 */
import { db, type Tx } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { mailGuardrailOf, mailTriggerFilterMiss, mailTriggerParams, type MailGuardrail, type MailTriggerFilter, type MatchableMessage } from '../nodes/triggers/mail-trigger.node.ts';
import { oneRunAtATimeOf, type OneRunAtATime } from '../contract/one-run-at-a-time';
import { admitIfSlotFreed } from '../run/admission';
import { startExecution } from '../run/start';
import { joinOpenBurst, openingTriggerData, recordOpeningMessage } from './bursts';
import { loadMessage, senderExclusionOf, signalsOf, summaryOf, type QueuedMessage } from './mail-message';
import { wakeReplyWaits } from './reply-waits';
import { serialKeyOf } from './serial-key';

export { domainsOf, senderExclusionOf } from './mail-message';

export type JournalOutcome = 'excluded_org' | 'excluded_member' | 'guardrail' | 'unmatched' | 'dispatched';

export interface DispatchDecision {
  outcome: JournalOutcome;
  ruleRef: string | null;
  workflows: LiveMailWorkflow[];
}

interface LiveMailWorkflow {
  id: string;
  versionId: string;
  triggerNodeId: string | null;
  /** Whether its trigger puts the sender's card in the trigger data (`senderCard`). */
  senderCard: boolean;
  /** Its runs one at a time per key, and its burst window (contract/one-run-at-a-time.ts). */
  oneRunAtATime: OneRunAtATime | null;
}

/**
 * Mail sent by machines, as the dashboard counts it (`automatedEmails`): the kinds the guardrails
 * hold back by default, the loop guard apart (mail from the mailbox itself is the member's own).
 * Copied onto the journal entry so the figure is read from the journal alone.
 */
export function isAutomatedMail(message: Pick<QueuedMessage, 'isDeliveryReport' | 'isAutoReply' | 'isNoReply' | 'isMailingList' | 'isBulk'>): boolean {
  return message.isDeliveryReport || message.isAutoReply || message.isNoReply || message.isMailingList || message.isBulk;
}

/** Messages handled per call before the job ends (a fresh job picks up the rest). */
const maxPerRun = 500;

/** Journals and dispatches the queued new mail of one mailbox. Returns how many messages it handled. */
export async function dispatchNewMail(mailboxId: string): Promise<number> {
  let handled = 0;
  while (handled < maxPerRun) {
    const waiting: WaitingStart[] = [];
    const done = await db().$transaction((tx) => dispatchOne(tx, mailboxId, waiting), { timeout: 60_000, maxWait: 30_000 });
    // Runs started behind waiting runs look once more for a slot, now that their start has committed.
    for (const run of waiting) await admitIfSlotFreed(run.workflowId, run.id);
    if (!done) break;
    handled += 1;
  }
  // A long queue is handled by several jobs in turn, so one job never holds a worker for long.
  if (handled === maxPerRun) await enqueue('mail.dispatch', { mailboxId }, { jobKey: jobKeys.dispatch(mailboxId), jobKeyMode: 'preserve_run_at' });
  return handled;
}

/** A run the dispatch started waiting for a slot, behind runs of its workflow (startExecution's `waitBehindWaitingRuns`). */
interface WaitingStart {
  workflowId: string;
  id: string;
}

/**
 * One message, one transaction. False when the mailbox's queue is empty (or every row is taken). The runs it started
 * waiting are added to `waiting`, for the caller to look for a slot for once the transaction has committed.
 */
async function dispatchOne(tx: Tx, mailboxId: string, waiting: WaitingStart[]): Promise<boolean> {
  const taken = await tx.$queryRaw<{ message_id: string; replies_only: boolean }[]>`
    DELETE FROM mail_dispatch_queue
     WHERE message_id = (
       SELECT message_id FROM mail_dispatch_queue
        WHERE mailbox_id = ${mailboxId}::uuid
        ORDER BY enqueued_at, position
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING message_id, replies_only`;
  const messageId = taken[0]?.message_id;
  if (!messageId) return false;
  const message = await loadMessage(tx, messageId);
  // Removed since (expunged, mailbox deleted): nothing to journal.
  if (!message) return true;
  // Not new mail (a listed row the body pass filled): it only wakes the waits it answers, as new mail would.
  if (taken[0].replies_only) {
    if (!(await senderExclusionOf(tx, message.memberId, message.fromEmail))) await wakeReplyWaits(tx, message);
    return true;
  }
  const decision = await decide(tx, message);
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO mail_journal_entries (id, member_id, mailbox_id, message_id, outcome, rule_ref, automated)
    VALUES (gen_random_uuid(), ${message.memberId}::uuid, ${message.mailboxId}::uuid, ${message.id}::uuid, ${decision.outcome}, ${decision.ruleRef}, ${isAutomatedMail(message)})
    ON CONFLICT (message_id) DO NOTHING
    RETURNING id`;
  // Already journaled (queued again after a crash, or by a concurrent dispatcher): it started its runs then.
  if (inserted.length === 0) return true;
  // A reply in a thread that runs wait on wakes them, journaled and woken together (./reply-waits.ts). An
  // excluded sender's mail is out of the member's workflows' scope: it wakes nothing.
  if (decision.outcome !== 'excluded_org' && decision.outcome !== 'excluded_member') await wakeReplyWaits(tx, message);
  if (decision.outcome === 'dispatched') {
    const summary = await summaryOf(tx, message, decision.workflows.some((workflow) => workflow.senderCard));
    for (const workflow of decision.workflows) {
      const run = await startMailRun(tx, message, workflow, workflow.senderCard ? summary : { ...summary, contact: null });
      if (run?.waits) waiting.push({ workflowId: workflow.id, id: run.id });
    }
  }
  return true;
}

/**
 * One workflow's run for the message, under its "one run at a time" key when it has one; with a burst
 * window, the message joins the key's open burst instead when there is one (./bursts.ts).
 */
async function startMailRun(
  tx: Tx,
  message: QueuedMessage,
  workflow: LiveMailWorkflow,
  data: Record<string, unknown>,
): Promise<{ id: string; waits: boolean } | null> {
  const serialKey = await serialKeyOf(workflow.oneRunAtATime, data, message);
  const coalesceSeconds = serialKey ? (workflow.oneRunAtATime?.coalesceSeconds ?? 0) : 0;
  if (serialKey && coalesceSeconds > 0 && (await joinOpenBurst(tx, { workflowId: workflow.id, serialKey, messageId: message.id, data }))) return null;
  const run = await startExecution(
    {
      memberId: message.memberId,
      workflowId: workflow.id,
      workflowVersionId: workflow.versionId,
      trigger: {
        type: 'mail',
        nodeId: workflow.triggerNodeId,
        data: coalesceSeconds > 0 ? openingTriggerData(data) : data,
        mailboxId: message.mailboxId,
        messageId: message.id,
        headline: { subject: message.subject, fromName: message.fromName, fromEmail: message.fromEmail },
      },
      serialKey,
      coalesceSeconds,
      waitBehindWaitingRuns: true,
    },
    tx,
  );
  if (coalesceSeconds > 0) await recordOpeningMessage(tx, run.id, message.id);
  return run;
}

/**
 * The trigger data a mail run receives for a message of the mirror (null when there is none): real
 * dispatch and a test run on a pinned message hand workflows the same shape, the sender's card
 * included when the graph's trigger asks for it, and `batch` (the message alone) when the workflow
 * coalesces bursts (`workflowSettings`), as a burst's run of one message has it.
 */
export async function mailTriggerDataOf(
  tx: Tx,
  messageId: string,
  trigger: { graph: unknown; triggerNodeId: string | null; workflowSettings?: unknown },
): Promise<Record<string, unknown> | null> {
  const message = await loadMessage(tx, messageId);
  if (!message) return null;
  const data = await summaryOf(tx, message, wantsSenderCard(parseTrigger(trigger.graph, trigger.triggerNodeId)));
  return (oneRunAtATimeOf(trigger.workflowSettings)?.coalesceSeconds ?? 0) > 0 ? openingTriggerData(data) : data;
}

/** A graph's mail trigger parameters, parsed once for both the verdict and the sender's card. */
function parseTrigger(graph: unknown, triggerNodeId: string | null) {
  const nodes = (graph as { nodes?: { id?: unknown; params?: unknown }[] } | null)?.nodes ?? [];
  return mailTriggerParams.safeParse(nodes.find((candidate) => candidate.id === triggerNodeId)?.params ?? {});
}

type ParsedTrigger = ReturnType<typeof parseTrigger>;

/** A mail trigger's `senderCard` (true by default, and for a graph whose trigger is not a mail trigger's shape). */
function wantsSenderCard(parsed: ParsedTrigger): boolean {
  return parsed.success ? parsed.data.senderCard : true;
}

/** The member's published, running mail workflows watching the message's mailbox, oldest first. */
async function liveMailWorkflows(tx: Tx, message: QueuedMessage) {
  return tx.$queryRaw<{ id: string; versionId: string; triggerNodeId: string | null; graph: unknown; settings: unknown }[]>`
    SELECT w.id, v.id AS "versionId", v.trigger_node_id AS "triggerNodeId", v.graph, w.settings
      FROM workflows w
      JOIN workflow_versions v ON v.id = w.published_version_id
     WHERE w.member_id = ${message.memberId}::uuid
       AND NOT w.paused AND w.archived_at IS NULL
       AND v.trigger_type = 'mail'
       AND (cardinality(v.trigger_mailbox_ids) = 0 OR ${message.mailboxId} = ANY(v.trigger_mailbox_ids))
     ORDER BY w.created_at, w.id`;
}

function matchableOf(message: QueuedMessage): MatchableMessage {
  return {
    fromEmail: message.fromEmail,
    fromName: message.fromName,
    subject: message.subject,
    folder: message.folderRole ?? message.folderKey,
    folderKey: message.folderKey,
    hasAttachments: message.hasAttachments,
    isAutoReply: message.isAutoReply,
    isNoReply: message.isNoReply,
    isMailingList: message.isMailingList,
    isFromSelf: message.isFromSelf,
    isBulk: message.isBulk,
    isDeliveryReport: message.isDeliveryReport,
  };
}

/**
 * What the mail trigger node `triggerNodeId` of `graph` makes of the message: it starts (`match`), a
 * guardrail keeps it out, or one of its filters does (`filtered`, naming the filter's parameter);
 * `other_mailbox` when the trigger watches other mailboxes, `invalid_trigger` when its parameters do
 * not parse (in both it was never a candidate).
 */
type TriggerVerdict =
  | { kind: 'match' }
  | { kind: 'guardrail'; guardrail: MailGuardrail }
  | { kind: 'filtered'; filter: MailTriggerFilter }
  | { kind: 'other_mailbox' }
  | { kind: 'invalid_trigger' };

function triggerVerdict(parsed: ParsedTrigger, message: QueuedMessage, signals: string[]): TriggerVerdict {
  if (!parsed.success) return { kind: 'invalid_trigger' };
  if (parsed.data.mailboxIds.length > 0 && !parsed.data.mailboxIds.includes(message.mailboxId)) return { kind: 'other_mailbox' };
  const matchable = matchableOf(message);
  const guardrail = mailGuardrailOf(matchable, parsed.data);
  if (guardrail) return { kind: 'guardrail', guardrail };
  const filter = mailTriggerFilterMiss(parsed.data, matchable, signals);
  return filter ? { kind: 'filtered', filter } : { kind: 'match' };
}

/**
 * Why a message would or would not start a workflow with a given mail trigger, by the dispatcher's
 * own rules and in its order: the sender exclusions (`excluded`, `ruleRef` `exclusion:<id>`), the
 * loop guard, then the trigger's mailboxes, guardrails and filters.
 */
export type MailStartVerdict = TriggerVerdict | { kind: 'excluded'; ruleRef: string };

/**
 * The verdict for each trigger (graph and trigger node) on a mirrored message, in the triggers'
 * order; null when the message is gone. "Why didn't it run?" (the message journal) and evaluation
 * runs ask it: the answer is the one dispatch would give now.
 */
export async function mailStartVerdicts(tx: Tx, messageId: string, triggers: ReadonlyArray<{ graph: unknown; triggerNodeId: string | null }>): Promise<MailStartVerdict[] | null> {
  const message = await loadMessage(tx, messageId);
  if (!message) return null;
  const exclusion = await senderExclusionOf(tx, message.memberId, message.fromEmail);
  if (exclusion) return triggers.map(() => ({ kind: 'excluded' as const, ruleRef: `exclusion:${exclusion.id}` }));
  if (message.isFromSelf) return triggers.map(() => ({ kind: 'guardrail' as const, guardrail: 'from_self' as const }));
  const signals = await signalsOf(tx, message);
  return triggers.map((trigger) => triggerVerdict(parseTrigger(trigger.graph, trigger.triggerNodeId), message, signals));
}

/**
 * Whether a mirrored message would start a workflow whose graph has this mail trigger node, by the
 * dispatcher's own rules (`mailStartVerdicts`).
 */
export async function mailTriggerWouldStart(tx: Tx, messageId: string, graph: unknown, triggerNodeId: string | null): Promise<boolean> {
  const verdicts = await mailStartVerdicts(tx, messageId, [{ graph, triggerNodeId }]);
  return verdicts?.[0]?.kind === 'match';
}

export async function decide(tx: Tx, message: QueuedMessage): Promise<DispatchDecision> {
  const exclusion = await senderExclusionOf(tx, message.memberId, message.fromEmail);
  if (exclusion) return { outcome: exclusion.outcome, ruleRef: `exclusion:${exclusion.id}`, workflows: [] };
  if (message.isFromSelf) return { outcome: 'guardrail', ruleRef: 'guardrail:from_self', workflows: [] };
  const signals = await signalsOf(tx, message);
  const candidates = (await liveMailWorkflows(tx, message)).flatMap((row) => {
    const parsed = parseTrigger(row.graph, row.triggerNodeId);
    const verdict = triggerVerdict(parsed, message, signals);
    if (verdict.kind === 'other_mailbox' || verdict.kind === 'invalid_trigger') return [];
    const workflow: LiveMailWorkflow = { id: row.id, versionId: row.versionId, triggerNodeId: row.triggerNodeId, senderCard: wantsSenderCard(parsed), oneRunAtATime: oneRunAtATimeOf(row.settings) };
    return [{ workflow, verdict }];
  });
  const workflows = candidates.filter((candidate) => candidate.verdict.kind === 'match').map((candidate) => candidate.workflow);
  if (workflows.length > 0) return { outcome: 'dispatched', ruleRef: null, workflows };
  // A trigger that let the message's kind through but whose filters did not match: the filters decided.
  if (candidates.some((candidate) => candidate.verdict.kind === 'filtered')) return { outcome: 'unmatched', ruleRef: null, workflows: [] };
  const held = candidates.find((candidate) => candidate.verdict.kind === 'guardrail')?.verdict;
  const guardrail = held?.kind === 'guardrail' ? held.guardrail : mailGuardrailOf(matchableOf(message));
  if (guardrail) return { outcome: 'guardrail', ruleRef: `guardrail:${guardrail}`, workflows: [] };
  return { outcome: 'unmatched', ruleRef: null, workflows: [] };
}
