/**
 * The queries of driving an evaluation run (./drive.ts) and of its safety net (./sweeper.ts): the run's status
 * moves, claiming and finishing cases by conditional updates (so two drivers never start a case twice), and what a
 * case reads of its message and of the runs it started.
 */
import type { Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';

const versionSelect = { id: true, graph: true, triggerType: true, triggerNodeId: true } as const;

/** A queued run becomes `running` (a count of 0: it was not queued). */
export function beginQueuedRun(evalRunId: string) {
  return db().evalRun.updateMany({ where: { id: evalRunId, status: 'queued' }, data: { status: 'running', startedAt: new Date() } });
}

export function findRun(evalRunId: string) {
  return db().evalRun.findUnique({ where: { id: evalRunId } });
}

export function findRunStatus(evalRunId: string) {
  return db().evalRun.findUnique({ where: { id: evalRunId }, select: { status: true } });
}

/** What a case runs of a workflow version: its graph and trigger. */
export function findVersionToRun(versionId: string) {
  return db().workflowVersion.findUnique({ where: { id: versionId }, select: versionSelect });
}

export function countRunningCases(evalRunId: string) {
  return db().evalCase.count({ where: { evalRunId, status: 'running' } });
}

/** The next pending cases, in order. */
export function findPendingCases(evalRunId: string, take: number) {
  return db().evalCase.findMany({ where: { evalRunId, status: 'pending' }, orderBy: { index: 'asc' }, take });
}

export function findRunningCases(evalRunId: string) {
  return db().evalCase.findMany({ where: { evalRunId, status: 'running' }, orderBy: { index: 'asc' } });
}

/** The status and error of the runs cases started. */
export function findCaseExecutions(ids: string[]) {
  return db().execution.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, error: true } });
}

/** The run's status under FOR SHARE: a cancel (FOR UPDATE) waits for a starting case, and no case starts after a cancel. */
export async function shareRunStatus(tx: Tx, evalRunId: string): Promise<string | undefined> {
  const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM eval_runs WHERE id = ${evalRunId}::uuid FOR SHARE`;
  return row?.status;
}

/** A pending case becomes `running` (a count of 0: another driver took it). */
export function claimPendingCase(tx: Tx, caseId: string) {
  return tx.evalCase.updateMany({ where: { id: caseId, status: 'pending' }, data: { status: 'running' } });
}

/** The case's message, when it is still in one of the member's mailboxes. */
export function findCaseMessage(tx: Tx, memberId: string, messageId: string) {
  return tx.mailMessage.findFirst({ where: { id: messageId, mailbox: { memberId } }, select: { id: true, mailboxId: true, subject: true, fromName: true, fromEmail: true } });
}

/** What a started case holds: whether each version triggered, the runs it started, why not. */
export function recordCaseStart(tx: Tx, caseId: string, data: Prisma.EvalCaseUncheckedUpdateInput) {
  return tx.evalCase.update({ where: { id: caseId }, data });
}

/** The workflow's real run on the message (the `journal` baseline): the newest top-level, non-simulated one. */
export function findRealRunOnMessage(tx: Tx, run: { memberId: string; workflowId: string }, messageId: string) {
  return tx.execution.findFirst({
    where: { memberId: run.memberId, workflowId: run.workflowId, messageId, simulated: false, evalRunId: null, parentExecutionId: null },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, error: true },
  });
}

/** The steps of a run that ran (or run, or wait), in order, with their effects. */
export function findRanSteps(tx: Pick<Tx, 'executionStep'>, executionId: string) {
  return tx.executionStep.findMany({
    where: { executionId, status: { in: ['succeeded', 'failed', 'running', 'waiting'] } },
    orderBy: [{ seq: 'asc' }, { startedAt: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }],
    select: { nodeId: true, effects: true },
  });
}

/** A running case becomes `done` with its outcome (a count of 0: it was finished already). */
export function finishRunningCase(tx: Tx, caseId: string, data: Prisma.EvalCaseUncheckedUpdateManyInput) {
  return tx.evalCase.updateMany({ where: { id: caseId, status: 'running' }, data });
}

/** The run's done cases that ran a version, and how many of them ended with `code`. */
export async function countRanAndFailedWith(tx: Tx, evalRunId: string, code: string) {
  const [counts] = await tx.$queryRaw<{ ran: number; spent: number }[]>`
    SELECT count(*)::int AS ran, count(*) FILTER (WHERE error->>'code' = ${code})::int AS spent
      FROM eval_cases WHERE eval_run_id = ${evalRunId}::uuid AND status = 'done' AND execution_id IS NOT NULL`;
  return counts;
}

/** A running run ends (a count of 0: it had ended). */
export function endRunningRun(tx: Tx, evalRunId: string, status: string, error: { code: string; message: string } | null) {
  return tx.evalRun.updateMany({ where: { id: evalRunId, status: 'running' }, data: { status, finishedAt: new Date(), ...(error ? { error } : {}) } });
}

/** A queued or running run fails (a count of 0: it had ended). */
export function failOpenRun(tx: Tx, evalRunId: string, error: { code: string; message: string }) {
  return tx.evalRun.updateMany({ where: { id: evalRunId, status: { in: ['queued', 'running'] } }, data: { status: 'failed', error, finishedAt: new Date() } });
}

/**
 * Queued or running runs (older than 30 s) with no job that can still drive them: none, or one locked longer than
 * `orphanSeconds` (its runner died). Oldest first.
 */
export function findOrphanedRuns(orphanSeconds: number, limit: number) {
  return db().$queryRaw<{ id: string }[]>`
    SELECT r.id FROM eval_runs r
     WHERE r.status IN ('queued', 'running') AND r.created_at < now() - interval '30 seconds'
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'eval:' || r.id::text
                         AND (j.locked_at IS NULL OR j.locked_at > now() - make_interval(secs => ${orphanSeconds})))
     ORDER BY r.created_at LIMIT ${limit}`;
}
