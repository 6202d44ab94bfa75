/**
 * Resuming a step that waits for a decision (an approval): the decision is stored on the waiting step
 * and the execution goes back to `queued`, so it takes a slot again (ahead of later arrivals) and its
 * advancer hands the decision to the node (`resume.reason: 'decision'`). In the caller's transaction.
 */
import type { Tx } from '../../core/db';
import { wakeExecution } from './lease';

export async function resumeWithDecision(input: { executionId: string; nodeId: string; decision: unknown }, tx: Tx): Promise<boolean> {
  const step = await tx.executionStep.findUnique({ where: { executionId_nodeId: { executionId: input.executionId, nodeId: input.nodeId } }, select: { id: true, status: true, state: true } });
  if (step?.status !== 'waiting') return false;
  const state = (step.state && typeof step.state === 'object' ? step.state : {}) as Record<string, unknown>;
  await tx.executionStep.update({ where: { id: step.id }, data: { state: { ...state, decision: input.decision ?? null } as object } });
  await tx.execution.updateMany({ where: { id: input.executionId, status: 'waiting' }, data: { status: 'queued', waitUntil: null } });
  await wakeExecution(input.executionId, tx);
  return true;
}
