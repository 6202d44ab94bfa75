/**
 * Runaway recursion (issue 18, item 3): a run's call chain is bounded. A step may not start a run of
 * a workflow already in its chain (`sub_workflow_recursion`), nor a run deeper than
 * WORKFLOW_MAX_CALL_DEPTH levels below the top-level run (`sub_workflow_depth_exceeded`), whether
 * the step is a sub-workflow or a loop, in a live run, a test run or a replay. The refusal is a
 * permanent failure of the starting step, so its node's `onError` applies as for any failure.
 * Shown on a real graphile-worker with the engine's own flow nodes.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { replayExecution } from './replay';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { createWorkflow } from '../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';

await useEngineWorker({ concurrency: 8 });
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});

type OnError = 'fail' | 'continue' | 'errorPort';
const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const callNode = (workflowId: string, onError: OnError = 'fail') => ({ id: 'call', type: 'flow.sub_workflow', version: 1, name: 'Call', params: { workflowId }, onError });
const loopNode = (workflowId: string, items: unknown[] = [1, 2, 3]) => ({ id: 'loop', type: 'flow.loop', version: 1, name: 'Loop', params: { workflowId, items, concurrency: 5 } });
const stepNode = (id: string) => ({ id, type: 'test.step', version: 1, name: `Node ${id}`, params: {} });
const line = (...ids: string[]) => ids.slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index + 1] }));

/** A published workflow whose graph may name its own id. */
async function workflowWith(graphOf: (ownId: string) => GraphInput, id = randomUUID()) {
  const { workflow, version } = await createWorkflow(member, { id, graph: graphOf(id) });
  return { workflow, version: version! };
}

async function start(workflowId: string, versionId: string, simulated = false) {
  return startExecution({ memberId: member.id, workflowId, workflowVersionId: versionId, simulated, trigger: { type: 'webhook', nodeId: 'start', data: { from: 'test' } } });
}

/** Every run of the call tree under `rootId` (the root included), by a walk of `parent_execution_id`. */
async function treeOf(rootId: string) {
  return db().$queryRaw<{ id: string; workflow_id: string; status: string; call_depth: number }[]>`
    WITH RECURSIVE tree AS (
      SELECT id, workflow_id, status, call_depth FROM executions WHERE id = ${rootId}::uuid
      UNION ALL SELECT e.id, e.workflow_id, e.status, e.call_depth FROM executions e JOIN tree ON e.parent_execution_id = tree.id)
    SELECT * FROM tree`;
}

describe('a workflow already in the call chain is refused (`sub_workflow_recursion`)', () => {
  it('a sub-workflow calling its own workflow fails at once and starts no child', async () => {
    const { workflow, version } = await workflowWith((own) => ({ nodes: [trigger, callNode(own)], connections: line('start', 'call') }));
    const done = await waitForExecution((await start(workflow.id, version.id)).id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'sub_workflow_recursion', kind: 'permanent', nodeId: 'call', nodeType: 'flow.sub_workflow', details: { workflowId: workflow.id } });
    expect(await db().execution.count({ where: { parentExecutionId: done.id } })).toBe(0);
  });

  it('the parent’s `onError` still applies: `continue` goes on without the step’s data, `errorPort` takes the error path', async () => {
    const continuing = await workflowWith((own) => ({ nodes: [trigger, callNode(own, 'continue'), stepNode('after')], connections: line('start', 'call', 'after') }));
    const porting = await workflowWith((own) => ({
      nodes: [trigger, callNode(own, 'errorPort'), stepNode('recover'), stepNode('normal')],
      connections: [...line('start', 'call'), { from: 'call', output: 'error', to: 'recover' }, { from: 'call', output: 'main', to: 'normal' }],
    }));
    const [soft, ported] = await Promise.all([
      start(continuing.workflow.id, continuing.version.id).then((run) => waitForExecution(run.id)),
      start(porting.workflow.id, porting.version.id).then((run) => waitForExecution(run.id)),
    ]);
    expect(soft.status).toBe('succeeded');
    expect(soft.steps.find((step) => step.nodeId === 'call')).toMatchObject({ status: 'succeeded', error: { code: 'sub_workflow_recursion' } });
    expect(soft.steps.find((step) => step.nodeId === 'after')).toMatchObject({ status: 'succeeded', data: { attempt: 1, input: null } });
    expect(ported.status).toBe('succeeded');
    expect(Object.fromEntries(ported.steps.map((step) => [step.nodeId, step.status]))).toMatchObject({ call: 'succeeded', recover: 'succeeded', normal: 'skipped' });
    expect(ported.steps.find((step) => step.nodeId === 'recover')!.data).toMatchObject({ input: { error: { code: 'sub_workflow_recursion' } } });
  });

  it('mutual recursion A → B → A is refused at B’s call: two runs in all, each failing', async () => {
    const aId = randomUUID();
    const b = await workflowWith(() => ({ nodes: [trigger, callNode(aId)], connections: line('start', 'call') }));
    const a = await workflowWith(() => ({ nodes: [trigger, callNode(b.workflow.id)], connections: line('start', 'call') }), aId);
    const done = await waitForExecution((await start(a.workflow.id, a.version.id)).id);
    expect(done.error).toMatchObject({ code: 'sub_workflow_failed', nodeId: 'call' });
    const tree = await treeOf(done.id);
    expect(tree).toHaveLength(2);
    const child = await db().execution.findUniqueOrThrow({ where: { id: tree.find((row) => row.id !== done.id)!.id } });
    expect(child).toMatchObject({ workflowId: b.workflow.id, status: 'failed', callDepth: 1 });
    expect(child.error).toMatchObject({ code: 'sub_workflow_recursion', details: { workflowId: a.workflow.id } });
  });

  it('a loop whose iterations run its own workflow is refused before any iteration starts', async () => {
    const { workflow, version } = await workflowWith((own) => ({ nodes: [trigger, loopNode(own)], connections: line('start', 'loop') }));
    const done = await waitForExecution((await start(workflow.id, version.id)).id);
    expect(done.error).toMatchObject({ code: 'sub_workflow_recursion', nodeId: 'loop', nodeType: 'flow.loop' });
    expect(await db().execution.count({ where: { parentExecutionId: done.id } })).toBe(0);
  });

  it('a loop whose iterations run another workflow that calls the first again is refused in each iteration (the chain is by workflow, whatever the start kind)', async () => {
    const aId = randomUUID();
    const b = await workflowWith(() => ({ nodes: [trigger, callNode(aId)], connections: line('start', 'call') }));
    const a = await workflowWith(() => ({ nodes: [trigger, loopNode(b.workflow.id, [1, 2])], connections: line('start', 'loop') }), aId);
    const done = await waitForExecution((await start(a.workflow.id, a.version.id)).id);
    expect(done.error).toMatchObject({ code: 'loop_failed', nodeId: 'loop' });
    const iterations = await db().execution.findMany({ where: { parentExecutionId: done.id } });
    expect(iterations).toHaveLength(2);
    for (const iteration of iterations) {
      expect(iteration).toMatchObject({ startedBy: 'loop_iteration', status: 'failed', callDepth: 1 });
      expect(iteration.error).toMatchObject({ code: 'sub_workflow_recursion' });
      expect(await db().execution.count({ where: { parentExecutionId: iteration.id } })).toBe(0);
    }
  });

  it('a test run of a self-calling loop is refused the same way (its would-be children are test runs too)', async () => {
    const { workflow, version } = await workflowWith((own) => ({ nodes: [trigger, loopNode(own)], connections: line('start', 'loop') }));
    const done = await waitForExecution((await start(workflow.id, version.id, true)).id);
    expect(done).toMatchObject({ simulated: true, status: 'failed' });
    expect(done.error).toMatchObject({ code: 'sub_workflow_recursion', nodeId: 'loop' });
    expect(await db().execution.count({ where: { parentExecutionId: done.id } })).toBe(0);
  });

  it('a replay of a refused run is refused again', async () => {
    const { workflow, version } = await workflowWith((own) => ({ nodes: [trigger, callNode(own)], connections: line('start', 'call') }));
    const original = await waitForExecution((await start(workflow.id, version.id)).id);
    const replayed = await replayExecution(member.id, original.id, { from: 'start', version: 'published' });
    const done = await waitForExecution(replayed.executionId);
    expect(done.error).toMatchObject({ code: 'sub_workflow_recursion', nodeId: 'call' });
    expect(await db().execution.count({ where: { parentExecutionId: done.id } })).toBe(0);
  });
});

describe('the call depth is bounded (`sub_workflow_depth_exceeded`, WORKFLOW_MAX_CALL_DEPTH, default 8)', () => {
  it('a chain of distinct workflows runs 8 levels below the top-level run; the ninth call is refused and each caller fails in turn', async () => {
    const ids = Array.from({ length: 11 }, () => randomUUID());
    // W0 → W1 → … → W10: every workflow different, so only the depth stops the chain.
    for (let level = ids.length - 1; level >= 0; level -= 1) {
      const next = ids[level + 1];
      await workflowWith(() => (next ? { nodes: [trigger, callNode(next)], connections: line('start', 'call') } : { nodes: [trigger], connections: [] }), ids[level]);
    }
    const top = await db().workflow.findUniqueOrThrow({ where: { id: ids[0] } });
    const done = await waitForExecution((await start(top.id, top.publishedVersionId!)).id, { timeoutMs: 60_000 });
    expect(done.error).toMatchObject({ code: 'sub_workflow_failed' });
    const tree = await treeOf(done.id);
    expect(tree.map((row) => row.call_depth).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const deepest = await db().execution.findFirstOrThrow({ where: { id: { in: tree.map((row) => row.id) }, callDepth: 8 } });
    expect(deepest).toMatchObject({ workflowId: ids[8], status: 'failed' });
    expect(deepest.error).toMatchObject({ code: 'sub_workflow_depth_exceeded', kind: 'permanent', nodeId: 'call', details: { limit: 8 } });
  }, 90_000);
});
