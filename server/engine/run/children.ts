/**
 * Runs a step starts on its behalf (a sub-workflow, a loop's iterations): each child is started at
 * most once per index (its execution id is recorded in the effect store under `child:<index>`),
 * belongs to the same member, runs the child workflow's published version, holds no slot, and wakes
 * its parent when it ends.
 *
 * Each start is checked, in order: the workflow is the member's (`sub_workflow_not_found`), it is not
 * already in the call chain and the chain is not too deep (call-chain.ts), and the member has room
 * under the cap on runs holding no slot (slotless-runs.ts: otherwise the step is postponed once the
 * children that fit are started, and tries again for the rest).
 */
import { db } from '../../core/db';
import type { ChildRuns } from '../contract/define-node';
import { calledRunPosition } from './call-chain';
import { fail } from '../contract/failures';
import { effectKeyOf } from './effects';
import { postponeForRoom, roomForSlotlessRuns, roomFound } from './slotless-runs';
import { startExecution } from './start';

const finished = new Set(['succeeded', 'failed', 'cancelled']);

export function childRuns(parent: { executionId: string; stepId: string; nodeId: string; memberId: string; simulated: boolean; kind: 'sub_workflow' | 'loop_iteration' }): ChildRuns {
  const prefix = effectKeyOf(parent.executionId, parent.nodeId, 'child:');
  return {
    async start(children) {
      const step = { executionId: parent.executionId, nodeId: parent.nodeId };
      for (const child of children) {
        const effectKey = `${prefix}${child.index}`;
        const started = await db().$transaction(async (tx) => {
          const existing = await tx.executionEffect.findUnique({ where: { effectKey } });
          if (existing) return true;
          const workflow = await tx.workflow.findFirst({
            where: { id: child.workflowId, memberId: parent.memberId, archivedAt: null },
            select: { id: true, publishedVersionId: true },
          });
          if (!workflow?.publishedVersionId) throw fail.permanent('sub_workflow_not_found', { details: { workflowId: child.workflowId } });
          const call = await calledRunPosition(tx, parent.executionId, workflow.id);
          if (!(await roomForSlotlessRuns(tx, parent.memberId))) return false;
          const version = await tx.workflowVersion.findUniqueOrThrow({ where: { id: workflow.publishedVersionId }, select: { triggerType: true, triggerNodeId: true } });
          const run = await startExecution(
            {
              memberId: parent.memberId,
              workflowId: workflow.id,
              workflowVersionId: workflow.publishedVersionId,
              simulated: parent.simulated,
              trigger: { type: version.triggerType, nodeId: version.triggerNodeId, data: child.triggerData },
              startedBy: parent.kind,
              parent: { executionId: parent.executionId, stepId: parent.stepId },
              call,
            },
            tx,
          );
          await tx.executionEffect.create({
            data: { effectKey, executionId: parent.executionId, nodeId: parent.nodeId, kind: parent.kind, status: 'done', result: { executionId: run.id, index: child.index }, doneAt: new Date() },
          });
          return true;
        });
        // No room: the children started so far stay started (recorded by index); the rest wait.
        if (!started) await postponeForRoom(step);
      }
      if (children.length > 0) await roomFound(step);
    },
    async list() {
      const effects = await db().executionEffect.findMany({ where: { executionId: parent.executionId, nodeId: parent.nodeId, effectKey: { startsWith: prefix } } });
      const ids = effects.map((effect) => (effect.result as { executionId: string }).executionId);
      const executions = await db().execution.findMany({ where: { id: { in: ids } }, select: { id: true, status: true, error: true } });
      const outputs = await childOutputs(executions.filter((execution) => execution.status === 'succeeded').map((execution) => execution.id));
      const byId = new Map(executions.map((execution) => [execution.id, execution]));
      return effects
        .map((effect) => {
          const { executionId, index } = effect.result as { executionId: string; index: number };
          const execution = byId.get(executionId);
          const error = execution?.error as { code: string; message: string } | null | undefined;
          return {
            index,
            executionId,
            status: execution?.status ?? 'cancelled',
            output: outputs.get(executionId) ?? null,
            error: error ? { code: error.code, message: error.message } : null,
          };
        })
        .sort((a, b) => a.index - b.index);
    },
  };
}

/** A finished child's output: the data of its last step that succeeded. */
async function childOutputs(executionIds: string[]): Promise<Map<string, unknown>> {
  if (executionIds.length === 0) return new Map();
  const rows = await db().$queryRaw<{ execution_id: string; data: unknown }[]>`
    SELECT DISTINCT ON (execution_id) execution_id, data FROM execution_steps
    WHERE execution_id = ANY(${executionIds}::uuid[]) AND status = 'succeeded'
    ORDER BY execution_id, finished_at DESC NULLS LAST, seq DESC`;
  return new Map(rows.map((row) => [row.execution_id, row.data]));
}

export async function allChildrenFinished(executionId: string, nodeId: string): Promise<boolean> {
  const prefix = effectKeyOf(executionId, nodeId, 'child:');
  const effects = await db().executionEffect.findMany({ where: { executionId, nodeId, effectKey: { startsWith: prefix } }, select: { result: true } });
  const ids = effects.map((effect) => (effect.result as { executionId: string }).executionId);
  if (ids.length === 0) return true;
  const open = await db().execution.count({ where: { id: { in: ids }, status: { notIn: [...finished] } } });
  return open === 0;
}
