/**
 * A run that ends while an approval of it is pending leaves nothing to decide: a cancelled run's
 * approvals end as `expired` with reason `cancelled` (decidedVia `cancel`, in the cancel's transaction,
 * server/engine/run/cancel.ts); a run that fails or ends otherwise (a run timeout) ends them with
 * reason `run_ended` (in the finishing transaction, server/engine/run/finish.ts). Imports nothing from
 * the engine.
 */
import type { Tx } from '../../core/db';
import { emitToMember } from '../../core/realtime/emit';
import { expirePendingOfEndedRuns, findPendingOfRuns } from './repo';

export async function expireApprovalsOfCancelledRuns(executionIds: readonly string[], tx: Tx): Promise<number> {
  return expireApprovalsOfEndedRuns(executionIds, 'cancelled', tx);
}

export async function expireApprovalsOfEndedRuns(executionIds: readonly string[], reason: 'cancelled' | 'run_ended', tx: Tx): Promise<number> {
  if (executionIds.length === 0) return 0;
  const pending = await findPendingOfRuns(tx, executionIds);
  if (pending.length === 0) return 0;
  await expirePendingOfEndedRuns(tx, pending.map((row) => row.id), reason);
  for (const row of pending) await emitToMember(row.memberId, 'approval.changed', { approvalId: row.id, executionId: row.executionId, status: 'expired' }, tx);
  return pending.length;
}
