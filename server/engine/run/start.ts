/**
 * Starting an execution: the row (queued) and the job that advances it, in the caller's transaction,
 * so a trigger that commits always has its run and a rolled-back one has none. Every start goes
 * through here: triggers (mail dispatch, webhook, schedule), test runs, replays, error workflows,
 * sub-workflows and loop iterations.
 */
import { db, type Tx } from '../../core/db';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import type { CallPosition } from './call-chain';
import { effectiveLimits } from '../contract/limits';

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
}

type Writer = Pick<Tx, 'execution' | 'workflow' | '$executeRaw' | '$queryRaw'>;

/** Creates the execution and queues its first advance. Returns its id. */
export async function startExecution(input: StartExecutionInput, tx: Writer = db()): Promise<{ id: string }> {
  const simulated = input.simulated ?? false;
  // Test runs, sub-workflow runs and loop iterations never take a slot (spec, States: Execution).
  const holdsSlot = !simulated && input.startedBy !== 'sub_workflow' && input.startedBy !== 'loop_iteration';
  let timeoutMs = input.timeoutMs;
  if (timeoutMs === undefined) {
    const workflow = await tx.workflow.findUnique({ where: { id: input.workflowId }, select: { executionTimeoutMs: true, maxConcurrency: true } });
    timeoutMs = effectiveLimits(workflow ?? { executionTimeoutMs: null, maxConcurrency: null }).executionTimeoutMs;
  }
  const row = await tx.execution.create({
    data: {
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
  const coalesceSeconds = holdsSlot && input.serialKey ? (input.coalesceSeconds ?? 0) : 0;
  if (coalesceSeconds > 0) {
    // The window by the database's clock, which admission and the burst's joiners read too.
    const [window] = await tx.$queryRaw<{ until: Date }[]>`
      UPDATE executions SET coalesce_until = clock_timestamp() + make_interval(secs => ${coalesceSeconds})
       WHERE id = ${row.id}::uuid RETURNING coalesce_until AS until`;
    await enqueue('execution.advance', { executionId: row.id }, { jobKey: jobKeys.execution(row.id), runAt: window.until }, tx);
    return row;
  }
  await enqueue('execution.advance', { executionId: row.id }, { jobKey: jobKeys.execution(row.id) }, tx);
  return row;
}
