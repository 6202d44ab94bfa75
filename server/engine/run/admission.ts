/**
 * Slots (spec, States: Execution): a queued live run moves to running when its workflow has fewer
 * running slot-holding runs than its concurrency and the instance fewer than its cap, taken in order
 * of arrival. Test runs, sub-workflow runs and loop iterations hold no slot; a waiting run gives its
 * slot back and takes one again, ahead of later arrivals, when it resumes.
 *
 * Admission decisions are serialised by one transaction-level advisory lock, so two runners never
 * both take the last slot.
 */
import { db, type Tx } from '../../core/db';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import { effectiveLimits, instanceCeilings } from './limits';
import { emitToMember } from '../../core/realtime/emit';

const admissionLock = 80_417_001;

/** Moves a queued execution to running when a slot is free; true when it runs now. */
export async function admit(executionId: string): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; holds_slot: boolean; workflow_id: string; seq: bigint; member_id: string }[]>`
      SELECT status, holds_slot, workflow_id, seq, member_id FROM executions WHERE id = ${executionId}::uuid`;
    if (!row) return false;
    if (row.status === 'running') return true;
    if (row.status !== 'queued') return false;
    if (row.holds_slot) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${admissionLock})`;
      const workflow = await tx.workflow.findUnique({ where: { id: row.workflow_id }, select: { maxConcurrency: true, executionTimeoutMs: true } });
      const limit = effectiveLimits(workflow ?? { maxConcurrency: null, executionTimeoutMs: null }).maxConcurrency;
      const [counts] = await tx.$queryRaw<{ workflow_running: bigint; instance_running: bigint; earlier_queued: bigint }[]>`
        SELECT
          (SELECT count(*) FROM executions WHERE workflow_id = ${row.workflow_id}::uuid AND status = 'running' AND holds_slot) AS workflow_running,
          (SELECT count(*) FROM executions WHERE status = 'running' AND holds_slot) AS instance_running,
          (SELECT count(*) FROM executions WHERE workflow_id = ${row.workflow_id}::uuid AND status = 'queued' AND holds_slot AND seq < ${row.seq}) AS earlier_queued`;
      if (Number(counts.workflow_running) >= limit) return false;
      if (Number(counts.instance_running) >= instanceCeilings().instanceConcurrency) return false;
      // Arrival order: an earlier queued run of the same workflow goes first (it is queued to advance too).
      if (Number(counts.earlier_queued) > 0) {
        await kickQueued(row.workflow_id, tx);
        return false;
      }
    }
    await tx.$executeRaw`
      UPDATE executions SET status = 'running', started_at = coalesce(started_at, now()), updated_at = now() WHERE id = ${executionId}::uuid`;
    await emitToMember(row.member_id, 'execution.status', { executionId, workflowId: row.workflow_id, status: 'running' }, tx);
    return true;
  });
}

/**
 * A slot may have freed: queue the advance of the oldest queued runs of the workflow (as many as its
 * free slots) and, when the instance cap was the limit, of the oldest queued runs anywhere.
 */
export async function kickQueued(workflowId: string, tx: Pick<Tx, '$queryRaw' | '$executeRaw'> = db()): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    (SELECT id FROM executions WHERE workflow_id = ${workflowId}::uuid AND status = 'queued' ORDER BY seq LIMIT 5)
    UNION
    (SELECT id FROM executions WHERE status = 'queued' AND holds_slot ORDER BY seq LIMIT 2)`;
  for (const row of rows) await enqueue('execution.advance', { executionId: row.id }, { jobKey: jobKeys.execution(row.id), jobKeyMode: 'preserve_run_at' }, tx);
}
