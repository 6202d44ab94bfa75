/**
 * Cancelling executions (spec, States: Execution queued/running/waiting → cancelled): no further step
 * starts, waits are closed, called runs (sub-workflow runs, loop iterations: executions whose
 * `parentExecutionId` leads here) are cancelled too, done steps are not undone.
 *
 * Rows are locked (`FOR UPDATE`, in id order so two cancels never deadlock) and only rows still
 * `queued`, `running` or `waiting` move: a runner that finished the run first keeps its outcome. The
 * runner advancing a cancelled run sees the status under its own lock and stops. A cancelled run that
 * held one of its workflow's slots frees it: the oldest queued run of the workflow is asked to advance.
 */
import { recordActed } from './acted';
import { kickQueued } from './admission';
import { closeCancelledSteps } from './step-rows';
import { dropReplyWaitsOfRuns } from '../dispatch/reply-waits';
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { emitToMember } from '../../core/realtime/emit';
import { engineComposition, runHooks } from '../composition';

const inProgress = ['queued', 'running', 'waiting'];

type LockedRow = { id: string; member_id: string; workflow_id: string; status: string; holds_slot: boolean };

export interface CancelOutcome {
  /** Requested runs that this call cancelled. */
  cancelled: string[];
  /** Requested runs left alone: already finished, or not the member's (never revealed as such). */
  skipped: { id: string; reason: 'finished' | 'not_found' }[];
  /** Called runs cancelled with them. */
  cancelledChildren: number;
}

/** Cancels `ids` (the member's only) and the runs they called, in the caller's transaction. */
export async function cancelExecutionsIn(tx: Tx, memberId: string, ids: readonly string[]): Promise<CancelOutcome> {
  const unique = [...new Set(ids)];
  const requested = await tx.$queryRawUnsafe<LockedRow[]>(
    `SELECT id, member_id, workflow_id, status, holds_slot FROM executions
      WHERE id = ANY($1::uuid[]) AND member_id = $2::uuid ORDER BY id FOR UPDATE`,
    unique,
    memberId,
  );
  const byId = new Map(requested.map((row) => [row.id, row]));
  const cancelled: string[] = [];
  const skipped: CancelOutcome['skipped'] = [];
  for (const id of unique) {
    const row = byId.get(id);
    if (!row) skipped.push({ id, reason: 'not_found' });
    else if (!inProgress.includes(row.status)) skipped.push({ id, reason: 'finished' });
    else cancelled.push(id);
  }
  if (cancelled.length === 0) return { cancelled, skipped, cancelledChildren: 0 };

  const children = await tx.$queryRawUnsafe<LockedRow[]>(
    `WITH RECURSIVE called AS (
        SELECT id FROM executions WHERE parent_execution_id = ANY($1::uuid[])
        UNION
        SELECT e.id FROM executions e JOIN called c ON e.parent_execution_id = c.id
      )
      SELECT e.id, e.member_id, e.workflow_id, e.status, e.holds_slot FROM executions e
       WHERE e.id IN (SELECT id FROM called) AND e.status IN ('queued', 'running', 'waiting') AND NOT (e.id = ANY($1::uuid[]))
       ORDER BY e.id FOR UPDATE`,
    cancelled,
  );
  const targets = [...cancelled.map((id) => byId.get(id)!), ...children];
  const moved = await tx.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE executions
        SET status = 'cancelled', finished_at = now(), wait_until = NULL, lease_owner = NULL, lease_until = NULL, updated_at = now()
      WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'running', 'waiting')
      RETURNING id`,
    targets.map((row) => row.id),
  );
  const movedIds = new Set(moved.map((row) => row.id));
  // Whether each cancelled run acted before it was stopped (acted.ts: the executions list's marker).
  await recordActed(tx, [...movedIds]);
  // Steps in progress are closed where they stand (their status stays; the run is final): no retry is due.
  await closeCancelledSteps(tx, [...movedIds]);
  // Their waits for a reply end too (../dispatch/reply-waits.ts).
  await dropReplyWaitsOfRuns(tx, [...movedIds]);
  // Run-end hooks (engine-adapters/run-end-hooks.ts): their pending approvals end too (expired, reason `cancelled`).
  await runHooks(engineComposition().hooks.runsCancelled, tx, [...movedIds]);
  const freedWorkflows = new Set<string>();
  for (const row of targets) {
    if (!movedIds.has(row.id)) continue;
    await emitToMember(row.member_id, 'execution.status', { executionId: row.id, workflowId: row.workflow_id, status: 'cancelled' }, tx);
    if (row.holds_slot && row.status === 'running') freedWorkflows.add(row.workflow_id);
  }
  for (const workflowId of freedWorkflows) await admitNextQueued(tx, workflowId);
  return { cancelled, skipped, cancelledChildren: children.filter((row) => movedIds.has(row.id)).length };
}

/** A slot freed: the oldest queued runs of the workflow take it (admission, in this transaction). */
async function admitNextQueued(tx: Tx, workflowId: string): Promise<void> {
  await kickQueued(workflowId, tx);
}

export function cancelExecutions(memberId: string, ids: readonly string[]): Promise<CancelOutcome> {
  return inRetriedTransaction((tx) => cancelExecutionsIn(tx, memberId, ids));
}

/**
 * Cancels up to `limit` runs in progress of one workflow, oldest first; `hasMore` when others remain.
 * The caller has checked that the workflow is the member's.
 */
export async function cancelWorkflowExecutions(memberId: string, workflowId: string, limit: number): Promise<{ cancelled: number; hasMore: boolean }> {
  return inRetriedTransaction(async (tx) => {
    const candidates = await tx.execution.findMany({
      where: { memberId, workflowId, status: { in: inProgress } },
      orderBy: { seq: 'asc' },
      take: limit + 1,
      select: { id: true },
    });
    const outcome = await cancelExecutionsIn(
      tx,
      memberId,
      candidates.slice(0, limit).map((row) => row.id),
    );
    const remaining = await tx.execution.findFirst({ where: { memberId, workflowId, status: { in: inProgress } }, select: { id: true } });
    return { cancelled: outcome.cancelled.length, hasMore: remaining !== null };
  });
}
