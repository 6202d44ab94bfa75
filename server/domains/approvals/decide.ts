/**
 * Deciding an approval, from the application or from the emailed link: under a row lock, a pending
 * approval whose deadline has not passed becomes `approved` or `rejected`, and the waiting run is
 * resumed (`resumeWithDecision`: back to `queued`, its continuation delivered live) in the same
 * transaction. Anything else is answered as it stands (the caller says 409 or shows it).
 */
import type { Approval } from '../../generated/prisma/client';
import type { Tx } from '../../core/db';
import { recordAudit, type AuditBy } from '../../core/audit';
import { emitToMember } from '../../core/realtime/emit';
import { resumeWithDecision } from '../../engine';
import { lockApprovalRow, recordDecision } from './repo';

export type Decision = 'approve' | 'reject';

export type DecideOutcome =
  | { kind: 'decided'; row: Approval; resumed: boolean }
  /** Decided before, expired, or cancelled: nothing changed. */
  | { kind: 'closed'; row: Approval };

/** Locks the approval row; null when there is none. */
export async function lockApproval(tx: Tx, id: string): Promise<Approval | null> {
  return lockApprovalRow(tx, id);
}

/** Whether the approval can still be decided: pending and within its deadline. */
export function isOpen(row: Approval, now = new Date()): boolean {
  return row.status === 'pending' && row.expiresAt.getTime() > now.getTime();
}

/**
 * `auditBy`: the member (and key) deciding in the application; a decision from the emailed link is the
 * system's entry, with the approver's address in its details.
 */
export async function decideLocked(tx: Tx, row: Approval, decision: Decision, by: { via: 'app' | 'link'; decidedBy: string; auditBy: AuditBy }): Promise<DecideOutcome> {
  if (!isOpen(row)) return { kind: 'closed', row };
  const status = decision === 'approve' ? 'approved' : 'rejected';
  const updated = await recordDecision(tx, row.id, { status, decidedBy: by.decidedBy.slice(0, 254), decidedVia: by.via, decidedAt: new Date() });
  const resumed = await resumeWithDecision({ executionId: row.executionId, nodeId: row.nodeId, decision: { decision, decidedBy: updated.decidedBy, via: by.via } }, tx);
  await emitToMember(row.memberId, 'approval.changed', { approvalId: row.id, executionId: row.executionId, status }, tx);
  await recordAudit(
    by.auditBy,
    { action: 'approval.decided', targetKind: 'approval', targetId: row.id, details: { status, via: by.via, decidedBy: updated.decidedBy, executionId: row.executionId, workflowId: row.workflowId } },
    tx,
  );
  return { kind: 'decided', row: updated, resumed };
}
