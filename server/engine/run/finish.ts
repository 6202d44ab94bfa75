/**
 * The end of an execution. Every finish frees the run's slot (the next queued run of its workflow is
 * queued to advance) and wakes the parent of a called run. A failure of a live run also records one
 * incident and the `execution.failed` notification ("every failure is recorded as an incident",
 * Events 4: a sub-workflow run records its own, besides its caller's failed step), and starts the
 * workflow's error workflow when the spec's rules allow it (Events 6-7). Left out:
 * - test runs and the runs they call: a test run is not a failure of the team's automation; it fails
 *   in the editor, in front of the member;
 * - loop iterations and the runs they call: the loop fails once, in the run that holds it;
 * - error workflows for runs started by an error workflow or called, at any depth, by one: an error
 *   workflow that calls the failing workflow again would otherwise start itself again, forever.
 */
import { db, pool, type Tx } from '../../core/db';
import { prepared, type PreparedText } from '../../core/db/prepared';
import { log } from '../../core/log';
import { emitToMember, realtimeNotification } from '../../core/realtime/emit';
import { engineComposition, runHooks } from '../composition';
import { actedExpression } from './acted';
import { kickQueued } from './admission';
import { resolveIncidentsOfReplay } from './resolve-incidents';
import { callLineage } from './call-chain';
import { wakeExecution } from './lease';
import { startExecution } from './start';
import { anonymisedSummary } from './summary';
import { failOpenSteps, flushHeldSteps, heldStepsPayload, heldWrites } from './step-rows';
import { leavesCutOffStep, type StepJournal } from './step-journal';
import { dropReplyWaitsOfRuns } from '../dispatch/reply-waits';
import type { ClaimedExecution } from './lease';
import { statusFilter } from './run-by-id';

export interface ExecutionError {
  code: string;
  message: string;
  nodeId: string | null;
  kind: 'transient' | 'permanent';
  attempts: number;
  nodeType: string | null;
  details: Record<string, unknown>;
  at: string;
  /** Not in the spec's error object: the node's name, for the incident. */
  nodeName?: string | null;
}

const open = ['queued', 'running', 'waiting'];

/** The error as the run's row keeps it (the spec's error object), or undefined for a success. */
function storedError(error: ExecutionError | null): object | undefined {
  return error ? { code: error.code, message: error.message, nodeId: error.nodeId, kind: error.kind, attempts: error.attempts, nodeType: error.nodeType, details: error.details, at: error.at } : undefined;
}

/**
 * The closing statement's values, in its parameters' order: the final status, `acted` (acted.ts: its steps are all
 * written by now) and the live event in one statement, which changes nothing when the run had already ended
 * (cancelled meanwhile). The advance that ends it gives its lease back in the same statement, adding the lease's
 * working time (lease.ts releaseLease).
 */
function closeValues(execution: ClaimedExecution, status: 'succeeded' | 'failed', stored: object | undefined): unknown[] {
  const notice = statusNotice(execution, status);
  const lease = execution.journal;
  const given = lease ? leaseGivenAtEnd(lease) : { workedMs: 0, endsStreak: false };
  return [execution.id, status, stored === undefined ? null : JSON.stringify(stored), open, notice.channel, notice.body, lease?.owner ?? null, given.workedMs, given.endsStreak];
}

function statusNotice(execution: ClaimedExecution, status: 'succeeded' | 'failed') {
  return realtimeNotification(execution.memberId, 'execution.status', { executionId: execution.id, workflowId: execution.workflowId, status });
}

/**
 * What the advance ending the run adds as it gives its lease back: the lease's working time, and whether the crash
 * streak ends, as it would at the lease's release (advance.ts): alive, no cut-off step left to retry.
 */
function leaseGivenAtEnd(lease: StepJournal): { workedMs: number; endsStreak: boolean } {
  return { workedMs: Math.max(0, Math.round(Date.now() - lease.workingSince)), endsStreak: !leavesCutOffStep(lease) };
}

/**
 * Steps still open when the run ends (a run timeout) are closed with it. An advance knows its run's steps
 * (step-journal.ts): none open, nothing to close, and nothing a domain can still hold pending for one of them.
 */
function stepsOpenAt(execution: ClaimedExecution): boolean {
  return !execution.journal || execution.journal.steps.some((step) => open.includes(step.status));
}

/** Moves the execution to its final status, unless it already finished (cancelled meanwhile). */
async function close(tx: Tx, execution: ClaimedExecution, status: 'succeeded' | 'failed', error: ExecutionError | null): Promise<boolean> {
  const stored = storedError(error);
  // The steps its advance held (step-journal.ts) are written first: they are part of the run that ends.
  if (execution.journal?.held.length && !(await flushHeldSteps(tx, execution))) return false;
  const closed = await tx.$queryRawUnsafe<{ id: string }[]>(closeStatement.text, ...closeValues(execution, status, stored));
  if (closed.length === 0) return false;
  const stepsOpen = stepsOpenAt(execution);
  if (stepsOpen) await failOpenSteps(tx, execution.id, stored);
  // A wait for a reply in another branch of a failed run ends with it (../dispatch/reply-waits.ts).
  if (status === 'failed') await dropReplyWaitsOfRuns(tx, [execution.id]);
  // Run-end hooks (engine-adapters/run-end-hooks.ts): an approval still pending (the run timed out while it
  // waited elsewhere) can no longer be decided. An approval is pending only while its step waits.
  if (stepsOpen) await runHooks(engineComposition().hooks.runClosed, tx, execution.id);
  if (execution.parentExecutionId) await wakeExecution(execution.parentExecutionId, tx);
  return true;
}

/** The closing statement, prepared (core/db/prepared.ts): every run's end pays it. */
const closeStatement = prepared(`WITH closed AS (
       UPDATE executions SET status = $2, finished_at = clock_timestamp(), error = coalesce($3::jsonb, error), wait_until = NULL,
              updated_at = now(), acted = ${actedExpression('executions.id')},
              working_ms = working_ms + (CASE WHEN lease_owner = $7 THEN $8::int ELSE 0 END),
              lease_until = (CASE WHEN lease_owner = $7 THEN NULL ELSE lease_until END),
              lease_takeovers = (CASE WHEN lease_owner = $7 AND $9 THEN 0 ELSE lease_takeovers END),
              lease_owner = (CASE WHEN lease_owner = $7 THEN NULL ELSE lease_owner END)
        WHERE id = $1::uuid AND ${statusFilter('status = ANY($4::text[])')} RETURNING id
     ), told AS (SELECT pg_notify($5, $6) FROM closed)
     SELECT closed.id, (SELECT count(*) FROM told)::int AS told FROM closed`);

/**
 * The close of a success whose advance still holds steps (step-journal.ts: the effect-free steps since its last
 * write), with those steps, in one statement: what `close` does with flushHeldSteps and the closing statement in a
 * transaction. As flushHeldSteps, only for a run still running under this advance's lease; nothing is written
 * otherwise.
 *
 * Two statements, by whether a held step recorded an effect: then the run acted and `acted` is `true`, read from
 * nothing; otherwise the statement reads the run's steps and called runs (acted.ts), which cannot see the held ones
 * (they are not written yet, and are effect-free). One statement with `acted = ($5 OR …)` was planned again at every
 * execution: PostgreSQL folds a known `true` away, so each custom plan cost a fortieth of the generic one (34 against
 * 914) and the generic plan was never chosen; 0.54 ms of planning per run end in the engine bench (issue 25 §1).
 * Exported for the test of their plans (run-end-plans.int.test.ts).
 */
export const closeWithHeldStatements = {
  acted: closeWithHeldStatement('true'),
  readingSteps: closeWithHeldStatement(actedExpression('executions.id')),
};

function closeWithHeldStatement(acted: string): PreparedText {
  return prepared(`WITH live AS (
       UPDATE executions SET status = 'succeeded', finished_at = clock_timestamp(), wait_until = NULL, updated_at = now(),
              acted = ${acted},
              working_ms = working_ms + $3::int, lease_until = NULL, lease_owner = NULL,
              lease_takeovers = (CASE WHEN $4::boolean THEN 0 ELSE lease_takeovers END)
        WHERE id = $1::uuid AND ${statusFilter("status = 'running'")} AND lease_owner = $2 RETURNING id
     ), ${heldWrites('$5', 'written', '$1')}, told AS (
       SELECT pg_notify($6, n.body) FROM live, unnest($7::text[]) AS n(body)
     )
     SELECT live.id, (SELECT count(*) FROM written)::int AS written, (SELECT count(*) FROM told)::int AS told FROM live`);
}

/** The held close for this run's end, with its values in its parameters' order. */
function closeWithHeld(execution: ClaimedExecution & { journal: StepJournal }): PreparedText & { values: unknown[] } {
  const held = heldStepsPayload(execution);
  const notice = statusNotice(execution, 'succeeded');
  const given = leaseGivenAtEnd(execution.journal);
  // The steps' events before the run's, as a flush before the close sent them.
  const values = [execution.id, execution.journal.owner, given.workedMs, given.endsStreak, held.rows, notice.channel, [...held.notices.map((each) => each.body), notice.body]];
  return { ...(held.acted ? closeWithHeldStatements.acted : closeWithHeldStatements.readingSteps), values };
}

/**
 * Whether a success is one statement and nothing else: an advance that knows its steps, leaves none open, and has
 * neither a caller to wake nor incidents to answer (a replay). Nearly every run's end.
 */
function succeedsByOneStatement(execution: ClaimedExecution): execution is ClaimedExecution & { journal: StepJournal } {
  return execution.journal !== undefined && !stepsOpenAt(execution) && !execution.parentExecutionId && !(execution.startedBy === 'replay' && !execution.simulated);
}

export async function succeedExecution(execution: ClaimedExecution): Promise<void> {
  if (succeedsByOneStatement(execution)) {
    // One round trip on the pool, the statement its own transaction (its rollups at its commit, as in a transaction):
    // a Prisma transaction would add its BEGIN and COMMIT round trips, and the held steps' flush one more (issue 25 §1).
    const holding = execution.journal.held.length > 0;
    const { rows } = holding
      ? await pool().query(closeWithHeld(execution))
      : await pool().query({ ...closeStatement, values: closeValues(execution, 'succeeded', undefined) });
    if (rows.length > 0) execution.journal.held = [];
    leaseGivenBack(execution, rows.length > 0);
    if (rows.length > 0) await slotFreed(execution);
    return;
  }
  const closed = await db().$transaction(async (tx) => {
    if (!(await close(tx, execution, 'succeeded', null))) return false;
    // A replay that succeeded answers the incidents of the runs it replays (resolve-incidents.ts).
    // The member's open incident views refresh on the replay's `execution.status` (use-live-updates.ts).
    if (execution.startedBy === 'replay' && !execution.simulated) await resolveIncidentsOfReplay(tx, execution.id);
    return true;
  });
  leaseGivenBack(execution, closed);
  if (closed) await slotFreed(execution);
}

/**
 * The run's slot is free: the next queued runs of its workflow are admitted, in a transaction of their own once
 * the run's end has committed, not inside it (issue 25 §1). The end's statement takes the dashboard rollup's row of
 * the workflow's hour, and admission the instance-wide admission lock; held together until the end committed,
 * they made every run's end wait for the one before it (83 ms per end at 20 runs in flight, and the engine's
 * throughput capped by it). A runner that dies between the two leaves the queued runs without a job; the sweeper
 * gives them one (sweeper.ts: queued, no live job), as for any other lost wake-up.
 */
async function slotFreed(execution: ClaimedExecution): Promise<void> {
  if (!execution.holdsSlot) return;
  try {
    await kickQueued(execution.workflowId);
  } catch (err) {
    log.warn({ err, executionId: execution.id }, 'admission after a run left its slot failed; the sweeper admits the queued runs');
  }
}

/** The run's end committed: the lease went with it (close), the advance has none left to release. */
function leaseGivenBack(execution: ClaimedExecution, closed: boolean): void {
  if (closed && execution.journal) execution.journal.leaseReleased = true;
}

export async function failExecution(execution: ClaimedExecution, error: ExecutionError): Promise<void> {
  const closed = await db().$transaction(async (tx) => {
    if (!(await close(tx, execution, 'failed', error))) return false;
    await recordFailure(tx, execution, error);
    return true;
  });
  leaseGivenBack(execution, closed);
  if (closed) await slotFreed(execution);
}

/** A live run's failure, after its close: its incident, the notification, the error workflow. */
async function recordFailure(tx: Tx, execution: ClaimedExecution, error: ExecutionError): Promise<void> {
  if (execution.simulated) return;
  const lineage = await callLineage(tx, execution);
  if (lineage.inLoop) return;
  const workflow = await tx.workflow.findUnique({ where: { id: execution.workflowId }, select: { name: true, errorWorkflowId: true } });
  const workflowName = workflow?.name ?? '';
  const errorSummary = anonymisedSummary({ code: error.code, message: error.message, nodeName: error.nodeName });
  await tx.incident.create({
    data: {
      memberId: execution.memberId,
      executionId: execution.id,
      workflowId: execution.workflowId,
      workflowName,
      mailboxId: execution.mailboxId,
      failedAt: new Date(error.at),
      errorSummary,
      nodeId: error.nodeId,
      nodeName: error.nodeName ?? null,
    },
  });
  // Run-end hooks: the `execution.failed` notification.
  await runHooks(engineComposition().hooks.runFailed, tx, { executionId: execution.id, memberId: execution.memberId, workflowId: execution.workflowId, workflowName, errorSummary });
  if (workflow?.errorWorkflowId && !lineage.inErrorWorkflow) await startErrorWorkflow(tx, execution, workflow.errorWorkflowId, workflowName, error);
}

/**
 * The error workflow never starts for a test run, a loop iteration, a run itself started by an error
 * workflow, nor for itself; it must belong to the same member, be published, not paused, not
 * archived, and start with the workflow-failure trigger.
 */
async function startErrorWorkflow(tx: Tx, execution: ClaimedExecution, errorWorkflowId: string, workflowName: string, error: ExecutionError): Promise<void> {
  if (execution.startedBy === 'error_workflow' || execution.startedBy === 'loop_iteration') return;
  if (errorWorkflowId === execution.workflowId) return;
  const target = await tx.workflow.findFirst({
    where: { id: errorWorkflowId, memberId: execution.memberId, archivedAt: null, paused: false, publishedVersionId: { not: null } },
    select: { id: true, publishedVersionId: true },
  });
  if (!target?.publishedVersionId) return;
  const version = await tx.workflowVersion.findUnique({ where: { id: target.publishedVersionId }, select: { triggerType: true, triggerNodeId: true } });
  if (version?.triggerType !== 'workflow_failure') return;
  const failure = {
    workflowId: execution.workflowId,
    workflowName,
    executionId: execution.id,
    workflowVersionId: execution.workflowVersionId,
    failedAt: error.at,
    error: { code: error.code, message: error.message, kind: error.kind, attempts: error.attempts },
    nodeId: error.nodeId,
    nodeName: error.nodeName ?? null,
    nodeType: error.nodeType,
    mailboxId: execution.mailboxId,
    messageId: execution.messageId,
  };
  // The error workflow receives the same triggering email when there was one, plus the report.
  const base = execution.messageId && execution.triggerData && typeof execution.triggerData === 'object' ? (execution.triggerData as Record<string, unknown>) : {};
  await startExecution(
    {
      memberId: execution.memberId,
      workflowId: target.id,
      workflowVersionId: target.publishedVersionId,
      trigger: {
        type: 'workflow_failure',
        nodeId: version.triggerNodeId,
        data: { ...base, failure },
        mailboxId: execution.mailboxId,
        messageId: execution.messageId,
        headline: (execution.messageHeadline as { subject: string | null; fromName: string | null; fromEmail: string | null } | null) ?? null,
      },
      startedBy: 'error_workflow',
    },
    tx,
  );
}

/** The execution's waiting moment: a wait or an approval; it gives its slot back while it waits. */
export async function suspendExecution(execution: ClaimedExecution, until: Date | null): Promise<void> {
  const suspended = await db().$transaction(async (tx) => {
    if (execution.journal?.held.length && !(await flushHeldSteps(tx, execution))) return false;
    const count = await tx.execution.updateMany({ where: { id: execution.id, status: 'running' }, data: { status: 'waiting', waitUntil: until } });
    if (count.count === 0) return false;
    await emitToMember(execution.memberId, 'execution.status', { executionId: execution.id, workflowId: execution.workflowId, status: 'waiting' }, tx);
    return true;
  });
  if (suspended) await slotFreed(execution);
}
