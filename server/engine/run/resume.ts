/**
 * Resuming a step that waits for a decision (an approval): the decision is stored on the step and the
 * execution goes back to `queued`, so it takes a slot again (ahead of later arrivals) and its advancer
 * hands the decision to the node (`resume.reason: 'decision'`). In the caller's transaction.
 *
 * A decision may arrive while the step is still running its attempt (the approval row is made before
 * the step suspends): it is kept on the step all the same and the execution is woken, so the advancer
 * holding it sees the wake-up when it releases, and claiming a `waiting` execution with a decided
 * step moves it back to `queued` (./lease.ts). Answers whether the run will resume.
 */
import type { Tx } from '../../core/db';
import { wakeExecution } from './lease';
import { storeDecision } from './step-rows';

export async function resumeWithDecision(input: { executionId: string; nodeId: string; decision: unknown }, tx: Tx): Promise<boolean> {
  const step = await tx.executionStep.findUnique({ where: { executionId_nodeId: { executionId: input.executionId, nodeId: input.nodeId } }, select: { id: true, status: true } });
  if (step?.status !== 'waiting' && step?.status !== 'running') return false;
  const execution = await tx.execution.findUnique({ where: { id: input.executionId }, select: { status: true } });
  if (!execution || !['queued', 'running', 'waiting'].includes(execution.status)) return false;
  await storeDecision(tx, step.id, input.decision);
  await tx.execution.updateMany({ where: { id: input.executionId, status: 'waiting' }, data: { status: 'queued', waitUntil: null } });
  await wakeExecution(input.executionId, tx);
  return true;
}
