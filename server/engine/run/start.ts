/**
 * Starting an execution: the row (queued) and the job that advances it, in the caller's transaction,
 * so a trigger that commits always has its run and a rolled-back one has none. Every start goes
 * through here: triggers (mail dispatch, webhook, schedule), test runs, replays, error workflows,
 * sub-workflows and loop iterations.
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../generated/prisma/client';
import { db, pool, type Tx } from '../../core/db';
import { DatabaseBusyError } from '../../core/db/busy';
import { executeText, preparedRoundTrip, type SqlPreparedStatement } from '../../core/db/prepared';
import { sqlStateOf, sqlStates } from '../../core/db/sql-state';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import type { CallPosition } from './call-chain';
import { effectiveLimits } from '../contract/limits';
import { admitIfSlotFreed, waitingForSlotSql } from './admission';

export type StartedBy = 'sub_workflow' | 'loop_iteration' | 'error_workflow' | 'replay';

export interface StartExecutionInput {
  memberId: string;
  workflowId: string;
  workflowVersionId: string;
  simulated?: boolean;
  trigger: {
    type: string | null;
    nodeId: string | null;
    data: Record<string, unknown> | null;
    mailboxId?: string | null;
    messageId?: string | null;
    /** {subject, fromName, fromEmail} of the triggering message, for lists and search. */
    headline?: { subject: string | null; fromName: string | null; fromEmail: string | null } | null;
  };
  startedBy?: StartedBy;
  parent?: { executionId: string; stepId: string };
  /** A called run's place in its call chain (call-chain.ts); a top-level run is level 0 with no callers. */
  call?: CallPosition;
  retryOf?: { executionId: string; from: 'start' | 'failed_step' };
  /** The workflow's run timeout at start (ms); read from the workflow when absent. */
  timeoutMs?: number;
  /** The evaluation run this simulated run serves: hidden from the executions list and summary. */
  evalRunId?: string;
  /** A simulated run that asks for real AI model calls (test runs' `callModels`). */
  callModels?: boolean;
  /**
   * Its workflow's "one run at a time" key (dispatch/serial-key.ts), for a top-level live run: admission
   * runs the workflow's runs of one key one at a time, in arrival order.
   */
  serialKey?: string | null;
  /** Opens a burst window of this many seconds (mail of the same key joins the run, dispatch/bursts.ts): admitted after it. */
  coalesceSeconds?: number;
  /**
   * Behind runs of its workflow waiting for a slot, the run starts waiting too, without a job (as a webhook's run,
   * startAloneStatement): then `waits` is true, and the caller, once its transaction has committed, calls
   * `admitIfSlotFreed` (admission.ts) for it. Only for a caller that does.
   */
  waitBehindWaitingRuns?: boolean;
}

type Writer = Pick<Tx, 'execution' | 'workflow' | '$executeRaw' | '$queryRaw'>;

/** Creates the execution and queues its first advance (unless it starts waiting: `waitBehindWaitingRuns`). Returns its id. */
export async function startExecution(input: StartExecutionInput, tx: Writer = db()): Promise<{ id: string; waits: boolean }> {
  const simulated = input.simulated ?? false;
  // Test runs, sub-workflow runs and loop iterations never take a slot (spec, States: Execution).
  const holdsSlot = !simulated && input.startedBy !== 'sub_workflow' && input.startedBy !== 'loop_iteration';
  let timeoutMs = input.timeoutMs;
  if (timeoutMs === undefined) {
    const workflow = await tx.workflow.findUnique({ where: { id: input.workflowId }, select: { executionTimeoutMs: true, maxConcurrency: true } });
    timeoutMs = effectiveLimits(workflow ?? { executionTimeoutMs: null, maxConcurrency: null }).executionTimeoutMs;
  }
  const coalesceSeconds = holdsSlot && input.serialKey ? (input.coalesceSeconds ?? 0) : 0;
  const waits = input.waitBehindWaitingRuns === true && holdsSlot && coalesceSeconds === 0 && (await runsWaitForSlot(tx, input.workflowId));
  const row = await tx.execution.create({
    data: {
      awaitsSlot: waits,
      memberId: input.memberId,
      workflowId: input.workflowId,
      workflowVersionId: input.workflowVersionId,
      simulated,
      holdsSlot,
      mailboxId: input.trigger.mailboxId ?? null,
      messageId: input.trigger.messageId ?? null,
      messageHeadline: input.trigger.headline ?? undefined,
      triggerType: input.trigger.type,
      triggerNodeId: input.trigger.nodeId,
      triggerData: (input.trigger.data ?? undefined) as object | undefined,
      parentExecutionId: input.parent?.executionId ?? null,
      parentStepId: input.parent?.stepId ?? null,
      startedBy: input.startedBy ?? null,
      callDepth: input.call?.depth ?? 0,
      callerWorkflowIds: input.call?.callers ?? [],
      retryOfExecutionId: input.retryOf?.executionId ?? null,
      replayFrom: input.retryOf?.from ?? null,
      timeoutMs,
      evalRunId: input.evalRunId ?? null,
      callModels: simulated && input.callModels === true,
      serialKey: holdsSlot && !input.startedBy ? (input.serialKey ?? null) : null,
    },
    select: { id: true },
  });
  if (waits) return { id: row.id, waits };
  if (coalesceSeconds > 0) {
    // The window by the database's clock, which admission and the burst's joiners read too.
    const [window] = await tx.$queryRaw<{ until: Date }[]>`
      UPDATE executions SET coalesce_until = clock_timestamp() + make_interval(secs => ${coalesceSeconds})
       WHERE id = ${row.id}::uuid RETURNING coalesce_until AS until`;
    await enqueue('execution.advance', { executionId: row.id }, { jobKey: jobKeys.execution(row.id), runAt: window.until }, tx);
    return { id: row.id, waits };
  }
  await enqueue('execution.advance', { executionId: row.id }, { jobKey: jobKeys.execution(row.id) }, tx);
  return { id: row.id, waits };
}

/** Whether slot-holding runs of the workflow wait for a slot (the same question as startAloneStatement's `behind`). */
async function runsWaitForSlot(tx: Writer, workflowId: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ waiting: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM executions WHERE workflow_id = ${workflowId}::uuid AND ${Prisma.raw(waitingForSlotSql)}) AS waiting`;
  return row?.waiting === true;
}

/** A top-level live run started on its own (no caller transaction): what `startExecutionAlone` needs. */
export interface AloneStartInput {
  memberId: string;
  workflowId: string;
  workflowVersionId: string;
  trigger: { type: string; nodeId: string | null; data: Record<string, unknown> };
  /** The workflow's run timeout (ms), read by the caller with the workflow. */
  timeoutMs: number;
  serialKey: string | null;
}

// The row and its first advance in one statement, its own transaction: one round trip where a Prisma transaction
// took five (BEGIN, the workflow's timeout, the row, the job, COMMIT). `id` and `updated_at` are Prisma's own
// defaults (its client fills them), so they are written here; everything else is the column's default, as for
// `startExecution` with the same input. Exported for the engine bench, which starts its runs with it (bench/engine.ts).
//
// A run that arrives behind runs of its workflow waiting for a slot starts waiting too (`awaits_slot`), with no job:
// its job would only have taken the admission lock to find no slot and let it wait (in a burst at the default 10
// slots, a second job, claim and admission for every run; issue 25 §1). Whoever frees a slot admits it, in arrival
// order, as it admits the runs ahead of it; startExecutionAlone looks for a free slot once more after the commit.
// The answer's `jobs` is what makes the `job` CTE run at all: PostgreSQL evaluates a SELECT in WITH only if it is read.
export const startAloneStatement: SqlPreparedStatement = {
  text: `
  WITH behind AS (
    SELECT EXISTS (SELECT 1 FROM executions WHERE workflow_id = $3 AND ${waitingForSlotSql}) AS waiting
  ), started AS (
    INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, trigger_type, trigger_node_id, trigger_data,
                            timeout_ms, serial_key, updated_at, awaits_slot)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now(), (SELECT waiting FROM behind))
    RETURNING id, awaits_slot
  ), job AS (
    SELECT graphile_worker.add_job('execution.advance', json_build_object('executionId', id),
                                   job_key => 'execution:' || id::text, job_key_mode => 'replace')
      FROM started WHERE NOT awaits_slot
  )
  SELECT s.awaits_slot AS waits, (SELECT count(*) FROM job) AS jobs FROM started s`,
  parameterTypes: ['uuid', 'uuid', 'uuid', 'uuid', 'text', 'text', 'jsonb', 'int', 'text'],
};

/** How long the start may wait (a lock, a slow disk) before it gives up with nothing started: a Prisma transaction's 5 s. */
const startAloneTimeoutMs = 5_000;

/** Drops `__proto__` keys at any depth, as Prisma's JSON writer does for `startExecution`: the stored data never holds one. */
const withoutProtoKeys = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/** A new run's id and the parameters of `startAloneStatement` that start it. */
export function aloneStartValues(input: AloneStartInput): { id: string; values: unknown[] } {
  const id = randomUUID();
  const values = [
    id,
    input.memberId,
    input.workflowId,
    input.workflowVersionId,
    input.trigger.type,
    input.trigger.nodeId,
    JSON.stringify(input.trigger.data, withoutProtoKeys),
    input.timeoutMs,
    input.serialKey,
  ];
  return { id, values };
}

/**
 * Starts a top-level live run (it takes a slot) outside any transaction: the row and its job commit together, in
 * one statement. For an entry that answers a caller as soon as the run exists (the inbound webhook), where a
 * transaction of its own would only add round trips. Same row as `startExecution`.
 *
 * Bounded as the transaction it replaces was: the statement runs under a 5 s `statement_timeout`, set for its
 * implicit transaction in the same simple-protocol round trip (the statement `PREPARE`d once per connection, run
 * by `EXECUTE`); past it nothing is started and the caller gets DatabaseBusyError (503 `internal.busy`).
 */
export async function startExecutionAlone(input: AloneStartInput): Promise<{ id: string }> {
  const { id, values } = aloneStartValues(input);
  let waits: boolean;
  try {
    const [result] = await preparedRoundTrip(pool(), [startAloneStatement], ([name]) => [executeText(name ?? null, startAloneStatement, values)], { timeoutMs: startAloneTimeoutMs });
    waits = (result!.rows[0] as { waits: boolean } | undefined)?.waits === true;
  } catch (error) {
    if (sqlStateOf(error) === sqlStates.queryCanceled) throw new DatabaseBusyError(error, 'the run could not be started within its statement timeout');
    throw error;
  }
  if (waits) await admitIfSlotFreed(input.workflowId, id);
  return { id };
}
