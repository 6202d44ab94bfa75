/**
 * A cancelled run's pending approvals end as `expired` with reason `cancelled` (decidedVia `cancel`),
 * in the cancel's own transaction (server/engine/run/cancel.ts). Imports nothing from the engine.
 */
import type { Tx } from '../../core/db';
import { emitToMember } from '../../core/realtime/emit';

export async function expireApprovalsOfCancelledRuns(executionIds: readonly string[], tx: Tx): Promise<number> {
  if (executionIds.length === 0) return 0;
  const pending = await tx.approval.findMany({ where: { executionId: { in: [...executionIds] }, status: 'pending' }, select: { id: true, memberId: true, executionId: true } });
  if (pending.length === 0) return 0;
  await tx.approval.updateMany({
    where: { id: { in: pending.map((row) => row.id) }, status: 'pending' },
    data: { status: 'expired', reason: 'cancelled', decidedVia: 'cancel', decidedAt: new Date() },
  });
  for (const row of pending) await emitToMember(row.memberId, 'approval.changed', { approvalId: row.id, executionId: row.executionId, status: 'expired' }, tx);
  return pending.length;
}
