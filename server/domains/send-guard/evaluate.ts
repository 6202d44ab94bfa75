/**
 * The blast-radius guard's verdict on one send, asked by the send pipeline when it claims an item
 * (in the claim's transaction). A verdict with a hold keeps the item `held` (never dropped) until the
 * member releases the hold.
 *
 * Under a transaction-level advisory lock of the mailbox (and the workflow), the item first joins an
 * open hold of its mailbox or workflow; otherwise the rules (./rules.ts) are checked against counts
 * of recent sends (./reading.ts). A trip opens one hold per scope and reason, pauses the workflow (it
 * stays published), and tells the member (notification `send.held`, live event `sending.hold`). The
 * pipeline then marks the item `held` with the hold's id and writes the journal's `held` entry, in
 * the same transaction: the lock is held until then, so the next claim of the mailbox counts it.
 *
 * The pipeline's quick claim reads the same batch on its own connection (`readGuard`) and comes here only when the
 * item joins a hold or trips one: opening a hold is this transaction's work.
 */
import type { Tx } from '../../core/db';
import { batchInPrisma } from '../../core/db/statement-batch';
import { emitToMember } from '../../core/realtime/emit';
import type { OutboundMessage } from '../../generated/prisma/client';
import { notify } from '../notifications';
import { insertHold, lockScopes, pauseWorkflow, workflowForHold } from './repo';
import { readGuard } from './reading';
import { guardLimits } from './limits';
import { scopeOf, type Trip } from './rules';

export interface GuardVerdict {
  /** The open hold that keeps this item (an existing one, or one this call tripped), or null: send. */
  holdId: string | null;
}

/**
 * The item joins an open hold of its mailbox's cap, or any hold of its workflow (a cap, a loop, a repeated
 * recipient: the workflow is paused until the member has looked) unless it is a human's send; a hold of a reason the
 * item was released from is not met again. Otherwise the rules are checked against the counts (./reading.ts).
 */
export async function evaluateSendGuard(item: OutboundMessage, tx: Tx): Promise<GuardVerdict> {
  await lockScopes(tx, item.mailboxId, item.workflowId);
  const reading = await readGuard(item, guardLimits(), batchInPrisma(tx));
  if (reading.joinableHoldId) return { holdId: reading.joinableHoldId };
  if (!reading.trip) return { holdId: null };
  return { holdId: await openHold(item, reading.trip, tx) };
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
