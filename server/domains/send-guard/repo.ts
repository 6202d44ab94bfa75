/**
 * The guard's locks and its holds' queries. What it reads to judge a send (releases, open holds, counts) is
 * ./reading.ts, one batch that runs in Prisma or on the send pipeline's own connection.
 */
import type { Tx } from '../../core/db';
import { afterCursor, decodeCursor } from '../../core/http/cursor';
import type { OutboundMessage, Prisma, SendHold } from '../../generated/prisma/client';
import type { ListHoldsQuery } from './schemas';

const lockKeyPrefix = { mailbox: 'send-guard:mailbox:', workflow: 'send-guard:workflow:' } as const;

/**
 * Serialises the guard's decisions on one mailbox (and one workflow) until the transaction ends, so
 * two runners claiming at the cap boundary cannot both count below it. Always mailbox first, then
 * workflow: one order, no deadlock.
 */
export async function lockScopes(tx: Tx, mailboxId: string | null, workflowId: string | null): Promise<void> {
  if (mailboxId) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKeyPrefix.mailbox} || ${mailboxId}::uuid::text, 0))`;
  if (workflowId) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKeyPrefix.workflow} || ${workflowId}::uuid::text, 0))`;
}

/**
 * `lockScopes` for an item known by its id (the pipeline's quick claim, before it has read the item): the same keys,
 * mailbox first, each its own statement so the second is taken after the first.
 */
export const lockScopesOfItemStatements = [
  {
    text: `SELECT pg_advisory_xact_lock(hashtextextended('${lockKeyPrefix.mailbox}' || o.mailbox_id::text, 0)) FROM outbound_messages o WHERE o.id = $1::uuid`,
    parameterTypes: ['uuid'],
  },
  {
    text: `SELECT pg_advisory_xact_lock(hashtextextended('${lockKeyPrefix.workflow}' || o.workflow_id::text, 0)) FROM outbound_messages o
            WHERE o.id = $1::uuid AND o.workflow_id IS NOT NULL`,
    parameterTypes: ['uuid'],
  },
] as const;

/** Items a hold keeps now. */
export async function countHeld(tx: Pick<Tx, 'outboundMessage'>, holdId: string): Promise<number> {
  return tx.outboundMessage.count({ where: { holdId, sendStatus: 'held' } });
}

/** The member's holds, newest first, one page (and one row more, to know whether another page follows). */
export function listMemberHolds(tx: Pick<Tx, 'sendHold'>, memberId: string, query: ListHoldsQuery): Promise<SendHold[]> {
  return tx.sendHold.findMany({
    where: {
      memberId,
      ...(query.status === 'open' ? { releasedAt: null } : {}),
      ...afterCursor('createdAt', decodeCursor(query.cursor)),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
}

/** What a hold's answer names: its mailbox's address, its workflow's name, and how many items open holds keep. */
export function holdLabels(tx: Pick<Tx, 'mailbox' | 'workflow' | 'outboundMessage'>, mailboxIds: string[], workflowIds: string[], openIds: string[]) {
  return Promise.all([
    tx.mailbox.findMany({ where: { id: { in: mailboxIds } }, select: { id: true, address: true } }),
    tx.workflow.findMany({ where: { id: { in: workflowIds } }, select: { id: true, name: true } }),
    openIds.length > 0
      ? tx.outboundMessage.groupBy({ by: ['holdId'], where: { holdId: { in: openIds }, sendStatus: 'held' }, _count: { _all: true } })
      : Promise.resolve([]),
  ]);
}

/** The scope of the member's hold (null: not theirs, or none). */
export function memberHoldScope(tx: Tx, id: string, memberId: string) {
  return tx.sendHold.findFirst({ where: { id, memberId }, select: { mailboxId: true, workflowId: true } });
}

/** The hold under FOR UPDATE, read again. */
export async function lockHold(tx: Tx, id: string): Promise<SendHold> {
  await tx.$executeRaw`SELECT 1 FROM send_holds WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.sendHold.findUniqueOrThrow({ where: { id } });
}

/** The items a hold keeps now. */
export function heldItems(tx: Tx, holdId: string) {
  return tx.outboundMessage.findMany({ where: { holdId, sendStatus: 'held' }, select: { id: true, mailboxId: true, notBefore: true } });
}

/** The hold's items back to `pending`, each journalled `released` with the hold's reason (their send jobs are the caller's). */
export async function returnToPending(tx: Tx, hold: Pick<SendHold, 'memberId' | 'reason'>, items: Pick<OutboundMessage, 'id' | 'mailboxId'>[]): Promise<void> {
  await tx.outboundMessage.updateMany({ where: { id: { in: items.map((item) => item.id) } }, data: { sendStatus: 'pending', holdId: null } });
  await tx.sendingJournalEntry.createMany({
    data: items.map((item) => ({ memberId: hold.memberId, outboundId: item.id, mailboxId: item.mailboxId, event: 'released', reason: hold.reason })),
  });
}

/** Another open hold of the member that paused this workflow. */
export function otherHoldPausing(tx: Tx, exceptId: string, memberId: string, workflowId: string): Promise<{ id: string } | null> {
  return tx.sendHold.findFirst({
    where: { id: { not: exceptId }, memberId, releasedAt: null, details: { path: ['pausedWorkflowId'], equals: workflowId } },
    select: { id: true },
  });
}

/** Un-pauses the member's workflow; whether it was paused. */
export async function unpauseWorkflow(tx: Tx, workflowId: string, memberId: string): Promise<boolean> {
  return (await tx.workflow.updateMany({ where: { id: workflowId, memberId, paused: true }, data: { paused: false } })).count > 0;
}

export function markReleased(tx: Tx, id: string, releasedBy: string, releasedAt: Date, details: Record<string, string | number | boolean>): Promise<SendHold> {
  return tx.sendHold.update({ where: { id }, data: { releasedAt, releasedBy, details } });
}

/** What opening a hold needs of the item's workflow: its name, whether it is paused, its owner. */
export function workflowForHold(tx: Tx, workflowId: string) {
  return tx.workflow.findUnique({ where: { id: workflowId }, select: { id: true, name: true, paused: true, memberId: true } });
}

export function insertHold(tx: Tx, data: Prisma.SendHoldUncheckedCreateInput): Promise<{ id: string }> {
  return tx.sendHold.create({ data, select: { id: true } });
}

export async function pauseWorkflow(tx: Tx, workflowId: string): Promise<void> {
  await tx.workflow.update({ where: { id: workflowId }, data: { paused: true } });
}
