/**
 * Call chains (issue 18: runaway recursion). A run a step starts (a sub-workflow run, a loop
 * iteration) sits one level below its caller and carries the workflows above it (`call_depth`,
 * `caller_workflow_ids`, copied from the caller's row at start, so the check reads one row rather
 * than walking `parent_execution_id`). A step may not start:
 * - a run of a workflow already in its chain, its own workflow included (`sub_workflow_recursion`):
 *   direct or mutual recursion, through sub-workflows or loops alike, since the chain is kept by
 *   workflow whatever started each run. Recursion is refused even when a condition would end it: a
 *   workflow that calls itself has no bound the engine can check (a loop over its own workflow, the
 *   worst case, grows as concurrency^depth), and iterating is what `flow.loop` is for;
 * - a run deeper than WORKFLOW_MAX_CALL_DEPTH levels below the top-level run
 *   (`sub_workflow_depth_exceeded`): chains of distinct workflows end too.
 * Both are permanent failures of the starting step, so its node's `onError` applies as for any
 * failure; in test runs and replays alike (every called run starts through `children.ts`).
 */
import { config } from '../../core/config';
import type { Tx } from '../../core/db';
import { fail } from '../contract/failures';

/** Where a called run sits: its level and the workflows above it, outermost first. */
export interface CallPosition {
  depth: number;
  callers: string[];
}

/** The position of a run of `workflowId` called by `callerExecutionId`, or the failure that refuses it. */
export async function calledRunPosition(tx: Pick<Tx, 'execution'>, callerExecutionId: string, workflowId: string): Promise<CallPosition> {
  const caller = await tx.execution.findUniqueOrThrow({ where: { id: callerExecutionId }, select: { workflowId: true, callDepth: true, callerWorkflowIds: true } });
  const chain = [...caller.callerWorkflowIds, caller.workflowId];
  if (chain.includes(workflowId)) throw fail.permanent('sub_workflow_recursion', { details: { workflowId } });
  const limit = config().WORKFLOW_MAX_CALL_DEPTH;
  const depth = caller.callDepth + 1;
  if (depth > limit) throw fail.permanent('sub_workflow_depth_exceeded', { details: { workflowId, limit } });
  return { depth, callers: chain };
}

/** What started the runs above a run (itself included): a loop iteration, an error workflow. */
export interface CallLineage {
  /** The run is a loop iteration or was called, at any depth, by one. */
  inLoop: boolean;
  /** The run was started by an error workflow or called, at any depth, by a run that was. */
  inErrorWorkflow: boolean;
}

/**
 * The lineage of a run, by a walk up `parent_execution_id` (a few rows: the depth is bounded). Read
 * when a run fails, to decide its incident and error workflow (finish.ts).
 */
export async function callLineage(tx: Pick<Tx, '$queryRaw'>, run: { id: string; parentExecutionId: string | null; startedBy: string | null }): Promise<CallLineage> {
  if (!run.parentExecutionId) return { inLoop: run.startedBy === 'loop_iteration', inErrorWorkflow: run.startedBy === 'error_workflow' };
  const [row] = await tx.$queryRaw<{ in_loop: boolean | null; in_error_workflow: boolean | null }[]>`
    WITH RECURSIVE chain AS (
      SELECT id, parent_execution_id, started_by, 0 AS level FROM executions WHERE id = ${run.id}::uuid
      UNION ALL
      SELECT e.id, e.parent_execution_id, e.started_by, chain.level + 1 FROM executions e JOIN chain ON e.id = chain.parent_execution_id
      WHERE chain.level < 100)
    SELECT bool_or(started_by = 'loop_iteration') AS in_loop, bool_or(started_by = 'error_workflow') AS in_error_workflow FROM chain`;
  return { inLoop: row?.in_loop === true, inErrorWorkflow: row?.in_error_workflow === true };
}
