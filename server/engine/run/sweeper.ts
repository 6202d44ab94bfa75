/**
 * The safety net that makes crashes cheap: every few seconds, executions whose advancer died (lease
 * expired), whose wait ended, that sit queued with no live job and no admission of theirs yet, or whose only job is
 * held by a runner that died before taking their lease, are queued to advance again; and, as the last
 * net, a running execution nobody holds, with no job and nothing left to wait for, is looked at again.
 * Nothing left to wait for: no retry due later, and no step still waiting: a step waiting for its
 * called runs has none unfinished, a step waiting for a decision has it. A running run with such a
 * step has no job by design (the last child's end or the decision wakes it); if that wake-up was lost,
 * this finds it. Job keys dedupe, so several runners sweeping together queue each execution once.
 * A queued run held back by an earlier run of its key (one run at a time, admission.ts) is left alone:
 * it may wait days behind a run waiting for a reply, and that run's end admits it. A run waiting for a slot is
 * admitted for, once per workflow (admitWaitingWorkflows).
 */
import { db } from '../../core/db';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import { Prisma } from '../../generated/prisma/client';
import { admitQueuedAlone, keyHeldByEarlierRun, waitingForSlotSql } from './admission';

export const sweepEveryMs = 3_000;
/**
 * A runner locks jobs in batches ahead of running them (graphile-worker's local queue); one killed
 * leaves them locked for hours. A queued execution whose only job has been locked this long, with no
 * advancer holding its lease, is given a new job (adding a key whose job is locked creates another).
 */
const orphanLockSeconds = 20;

export async function sweepExecutions(limit = 500): Promise<number> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    (SELECT id FROM executions WHERE status IN ('queued', 'running') AND lease_owner IS NOT NULL AND lease_until < now() LIMIT ${limit})
    UNION
    (SELECT id FROM executions WHERE status = 'waiting' AND wait_until IS NOT NULL AND wait_until <= now() LIMIT ${limit})
    UNION
    (SELECT e.id FROM executions e WHERE e.status = 'queued' AND e.lease_owner IS NULL AND NOT e.awaits_slot
       AND e.created_at < now() - interval '10 seconds'
       AND NOT ${keyHeldByEarlierRun}
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'execution:' || e.id::text
                         AND (j.locked_at IS NULL OR j.locked_at > now() - make_interval(secs => ${orphanLockSeconds})))
     ORDER BY e.seq LIMIT ${limit})
    UNION
    (SELECT e.id FROM executions e WHERE e.status = 'running' AND e.lease_owner IS NULL
       AND EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'execution:' || e.id::text
                   AND j.locked_at < now() - make_interval(secs => ${orphanLockSeconds}))
     LIMIT ${limit})
    UNION
    (SELECT e.id FROM executions e WHERE e.status = 'running' AND e.lease_owner IS NULL
       AND e.updated_at < now() - make_interval(secs => ${orphanLockSeconds})
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'execution:' || e.id::text)
       AND NOT EXISTS (SELECT 1 FROM execution_steps s WHERE s.execution_id = e.id
                       AND ((s.status = 'running' AND s.next_attempt_at > now())
                            OR (s.status = 'waiting' AND (s.decision IS NULL OR s.decision = 'null'::jsonb)
                                AND (s.state->>'mode' IS DISTINCT FROM 'children'
                                     OR EXISTS (SELECT 1 FROM executions c WHERE c.parent_execution_id = e.id
                                                  AND c.status IN ('queued', 'running', 'waiting'))))))
     LIMIT ${limit})`;
  for (const row of rows) {
    await enqueue('execution.advance', { executionId: row.id }, { jobKey: jobKeys.execution(row.id) });
  }
  return rows.length + (await admitWaitingWorkflows());
}

/** The most workflows with runs waiting for a slot that one sweep admits for. */
const waitingWorkflowsPerSweep = 100;

/**
 * A run waiting for a slot (`awaits_slot`: its own admission found none) has no job by design: the end that frees a
 * slot admits it (admission.ts). The net for an admission that never came (a runner that died between a run's end and
 * the admission after it) is one admission per workflow that has runs waiting, each sweep; when no slot is free it
 * admits nothing. The sweep used to give each such run a job of its own instead, up to 500 every 3 s, and during a
 * backlog every one of those jobs took the instance-wide admission lock to find no slot (issue 25 §1).
 */
async function admitWaitingWorkflows(): Promise<number> {
  const workflows = await db().$queryRaw<{ workflow_id: string }[]>`
    SELECT DISTINCT workflow_id FROM executions WHERE ${Prisma.raw(waitingForSlotSql)} LIMIT ${waitingWorkflowsPerSweep}`;
  let admitted = 0;
  for (const { workflow_id: workflowId } of workflows) admitted += (await admitQueuedAlone(workflowId)).length;
  return admitted;
}
