/**
 * The approvals' queries: the list (always scoped to one member), the row lock of a decision, the request and
 * expiry of the \`approval.request\` step, the link's lookup, and what a request reads of its run.
 */
import type { Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { afterCursor, type CursorPosition } from '../../core/http/cursor';
import type { ApprovalStatus } from './schemas';

/** Newest first, strictly after `after`; `take` rows at most. */
export function findApprovals(memberId: string, filter: { status: ApprovalStatus; messageId?: string }, after: CursorPosition | null, take: number) {
  return db().approval.findMany({
    where: {
      memberId,
      status: filter.status,
      ...(filter.messageId ? { triggerMessageId: filter.messageId } : {}),
      ...afterCursor('createdAt', after),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

/** Locks the approval row (FOR UPDATE) and reads it; null when there is none. */
export async function lockApprovalRow(tx: Tx, id: string) {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM approvals WHERE id = ${id}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  return tx.approval.findUnique({ where: { id } });
}

/** Writes a decision on a (locked) approval. */
export function recordDecision(tx: Tx, id: string, data: { status: string; decidedBy: string; decidedVia: string; decidedAt: Date }) {
  return tx.approval.update({ where: { id }, data });
}

/** The pending approvals of these runs (id, member, run). */
export function findPendingOfRuns(tx: Tx, executionIds: readonly string[]) {
  return tx.approval.findMany({ where: { executionId: { in: [...executionIds] }, status: 'pending' }, select: { id: true, memberId: true, executionId: true } });
}

/** Ends these approvals, when still pending, as `expired` with the run's reason. */
export function expirePendingOfEndedRuns(tx: Tx, ids: string[], reason: 'cancelled' | 'run_ended') {
  return tx.approval.updateMany({
    where: { id: { in: ids }, status: 'pending' },
    data: { status: 'expired', reason, decidedVia: reason === 'cancelled' ? 'cancel' : 'expiry', decidedAt: new Date() },
  });
}

/** The approval an emailed link names (by its token's hash). */
export function findByLinkTokenHash(linkTokenHash: string) {
  return db().approval.findUnique({ where: { linkTokenHash } });
}

type StepKey = { executionId: string; nodeId: string };

/** The approval a step asked for, if any (one per step). */
export function findStepApproval(key: StepKey, reader: Pick<Tx, 'approval'> = db()) {
  return reader.approval.findUnique({ where: { executionId_nodeId: key } });
}

export function createApproval(tx: Tx, data: Prisma.ApprovalUncheckedCreateInput) {
  return tx.approval.create({ data });
}

/** The deadline passed: the step's approval, when still pending, becomes `expired`. */
export function expirePendingStepApproval(tx: Tx, key: StepKey) {
  return tx.approval.updateMany({
    where: { executionId: key.executionId, nodeId: key.nodeId, status: 'pending' },
    data: { status: 'expired', reason: 'expired', decidedVia: 'expiry', decidedAt: new Date() },
  });
}

/** What a request reads of its run: the workflow, mailbox, triggering message and its headline. */
export function findRequestingRun(executionId: string) {
  return db().execution.findUniqueOrThrow({
    where: { id: executionId },
    select: { workflowId: true, mailboxId: true, messageId: true, messageHeadline: true },
  });
}

/** The workflow's name, shown on the approval (kept even if the workflow is renamed later). */
export function findWorkflowName(workflowId: string) {
  return db().workflow.findUnique({ where: { id: workflowId }, select: { name: true } });
}

/** A mailbox of the member by id, any status (the sender named by the step). */
export function findMemberMailbox(memberId: string, id: string) {
  return db().mailbox.findFirst({ where: { id, memberId }, select: { id: true, status: true } });
}

/** A connected mailbox of the member by id (the run's mailbox). */
export function findActiveMemberMailbox(memberId: string, id: string) {
  return db().mailbox.findFirst({ where: { id, memberId, status: 'active' }, select: { id: true } });
}

/** The member's first connected mailbox (oldest first). */
export function findFirstActiveMailbox(memberId: string) {
  return db().mailbox.findFirst({ where: { memberId, status: 'active' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } });
}
