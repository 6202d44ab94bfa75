/**
 * The blast-radius guard's verdict on one send, asked by the send pipeline when it claims an item
 * (in the claim's transaction). A verdict with a hold keeps the item `held` (never dropped) until the
 * member releases the hold.
 *
 * Under a transaction-level advisory lock of the mailbox (and the workflow), the item first joins an
 * open hold of its mailbox or workflow; otherwise the rules (./rules.ts) are checked against counts
 * of recent sends (./repo.ts). A trip opens one hold per scope and reason, pauses the workflow (it
 * stays published), and tells the member (notification `send.held`, live event `sending.hold`). The
 * pipeline then marks the item `held` with the hold's id and writes the journal's `held` entry, in
 * the same transaction: the lock is held until then, so the next claim of the mailbox counts it.
 */
import { config } from '../../core/config';
import type { Tx } from '../../core/db';
import { emitToMember } from '../../core/realtime/emit';
import type { OutboundMessage } from '../../generated/prisma/client';
import { notify } from '../notifications';
import {
  autoReplyCounterpart,
  busiestRecipient,
  countAutomatedSendsTo,
  countMailboxSends,
  countWorkflowSends,
  findOpenHoldOfScopes,
  insertHold,
  lockScopes,
  pauseWorkflow,
  releasedReasons,
  windowStart,
  workflowForHold,
  workflowSettingsOf,
} from './repo';
import { applicableRules, bareAddress, decideTrip, isHumanSend, scopeOf, workflowHoldReasons, workflowCap, type GuardFacts, type GuardLimits, type HoldReason, type Trip } from './rules';

export interface GuardVerdict {
  /** The open hold that keeps this item (an existing one, or one this call tripped), or null: send. */
  holdId: string | null;
}

const hourMs = 60 * 60 * 1000;

export function guardLimits(): GuardLimits {
  const settings = config();
  return {
    mailboxPerHour: settings.SEND_CAP_MAILBOX_PER_HOUR,
    workflowPerHour: settings.SEND_CAP_WORKFLOW_PER_HOUR,
    loopWindowMinutes: settings.SEND_GUARD_LOOP_WINDOW_MINUTES,
    loopMaxSends: settings.SEND_GUARD_LOOP_MAX_SENDS,
    repeatMaxSends: settings.SEND_GUARD_REPEAT_MAX_SENDS,
  };
}

export async function evaluateSendGuard(item: OutboundMessage, tx: Tx): Promise<GuardVerdict> {
  await lockScopes(tx, item.mailboxId, item.workflowId);
  const released = await releasedReasons(tx, item.id);
  const rules = applicableRules(item, released);

  const open = await joinableHold(item, released, tx);
  if (open) return { holdId: open };

  const limits = guardLimits();
  const facts = await gatherFacts(item, rules, limits, tx);
  const trip = decideTrip(rules, facts, limits);
  if (!trip) return { holdId: null };
  return { holdId: await openHold(item, trip, tx) };
}

/**
 * An open hold the item meets: its mailbox's cap hold, or any hold of its workflow (a cap, a loop, a
 * repeated recipient: the workflow is paused until the member has looked) unless the item is a
 * human's send. A hold of a reason the item was released from is not met again.
 */
async function joinableHold(item: OutboundMessage, released: ReadonlySet<string>, tx: Tx): Promise<string | null> {
  const scopes: object[] = [];
  if (!released.has('mailbox_hourly_cap')) scopes.push({ mailboxId: item.mailboxId, workflowId: null, reason: 'mailbox_hourly_cap' });
  if (item.workflowId && !isHumanSend(item)) {
    const reasons = workflowHoldReasons.filter((reason) => !released.has(reason));
    if (reasons.length > 0) scopes.push({ workflowId: item.workflowId, reason: { in: reasons } });
  }
  if (scopes.length === 0) return null;
  const hold = await findOpenHoldOfScopes(tx, item.memberId, scopes);
  return hold?.id ?? null;
}

async function gatherFacts(item: OutboundMessage, rules: HoldReason[], limits: GuardLimits, tx: Tx): Promise<GuardFacts> {
  const now = new Date();
  const facts: GuardFacts = {};
  const mailboxScope = { mailboxId: item.mailboxId, workflowId: null } as const;
  if (rules.includes('mailbox_hourly_cap')) {
    const since = await windowStart(tx, mailboxScope, 'mailbox_hourly_cap', hourMs, now);
    facts.mailboxSends = await countMailboxSends(tx, item.mailboxId, item.id, since);
  }
  const workflowId = item.workflowId;
  if (!workflowId) return facts;
  const workflowScope = { workflowId };
  if (rules.includes('workflow_hourly_cap')) {
    const workflow = await workflowSettingsOf(tx, workflowId);
    facts.workflowCap = workflowCap(workflow?.settings, limits.workflowPerHour);
    const since = await windowStart(tx, workflowScope, 'workflow_hourly_cap', hourMs, now);
    facts.workflowSends = await countWorkflowSends(tx, workflowId, item.id, since);
  }
  if (rules.includes('auto_reply_loop') && item.relatedMessageId) {
    const counterpart = await autoReplyCounterpart(tx, item.relatedMessageId, item.mailboxId);
    if (counterpart) {
      const since = await windowStart(tx, workflowScope, 'auto_reply_loop', limits.loopWindowMinutes * 60_000, now);
      facts.loop = { counterpart, sends: await countAutomatedSendsTo(tx, item.mailboxId, counterpart, item.id, since) };
    }
  }
  if (rules.includes('repeat_recipient')) {
    const recipients = [...new Set([...item.toAddrs, ...item.ccAddrs, ...item.bccAddrs].map(bareAddress).filter((address) => address.length > 0))];
    const since = await windowStart(tx, workflowScope, 'repeat_recipient', hourMs, now);
    facts.repeat = (await busiestRecipient(tx, workflowId, recipients, item.id, since)) ?? undefined;
  }
  return facts;
}

/** Opens the hold of a trip, pauses the workflow, and tells the member. */
async function openHold(item: OutboundMessage, trip: Trip, tx: Tx): Promise<string> {
  const scope = scopeOf(trip.reason, item.workflowId !== null);
  const workflow = item.workflowId ? await workflowForHold(tx, item.workflowId) : null;
  // Pausing is for the workflow behind the sends: a mailbox cap pauses the workflow of the item that met it.
  const pause = workflow !== null && workflow.memberId === item.memberId && !workflow.paused;
  const hold = await insertHold(tx, {
    memberId: item.memberId,
    mailboxId: item.mailboxId,
    workflowId: scope === 'workflow' ? item.workflowId : null,
    reason: trip.reason,
    details: { ...trip.details, pausedWorkflow: pause, ...(pause ? { pausedWorkflowId: workflow.id } : {}) },
  });
  if (pause) await pauseWorkflow(tx, workflow.id);
  const workflowName = item.workflowName ?? workflow?.name;
  await notify(
    {
      memberId: item.memberId,
      kind: 'send.held',
      severity: 'warning',
      params: {
        holdId: hold.id,
        reason: trip.reason,
        mailboxAddress: item.mailboxAddress,
        ...(workflowName ? { workflowName } : {}),
        heldCount: 1,
      },
      link: '/review',
    },
    tx,
  );
  await emitToMember(item.memberId, 'sending.hold', { holdId: hold.id, status: 'open' }, tx);
  return hold.id;
}
