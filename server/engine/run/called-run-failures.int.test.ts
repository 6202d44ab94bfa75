/**
 * Failures of called runs (spec, Events 4 and 7; issue 18, item 7). "Every failure is recorded as an
 * incident": a failed sub-workflow run records its own incident and `execution.failed` notification
 * and starts its own workflow's error workflow, besides the failure of the step that called it. Left
 * out, as written in the incidents route's description and ARCHITECTURE.md:
 * - loop iterations and the runs they call: the loop fails once, in the run that holds it;
 * - test runs and the runs they call: a test run is not a failure of the team's automation;
 * - runs started by an error workflow, and the runs those call, start no error workflow (Events 7),
 *   so an error workflow that calls the failing workflow again cannot ping-pong.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
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

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params });
const line = (...ids: string[]) => ids.slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index + 1] }));
const failingGraph: GraphInput = { nodes: [trigger, node('bad', 'test.step', { script: ['permanent'] })], connections: line('start', 'bad') };
const handlerGraph: GraphInput = { nodes: [node('on', 'test.on_failure'), node('log', 'test.step')], connections: line('on', 'log') };

/** A failing workflow whose error workflow is a fresh handler. */
async function failingWithHandler(name = 'Child') {
  const handler = await createWorkflow(member, { graph: handlerGraph, name: `${name} handler` });
  const child = await createWorkflow(member, { graph: failingGraph, name });
  await db().workflow.update({ where: { id: child.workflow.id }, data: { errorWorkflowId: handler.workflow.id } });
  return { handler: handler.workflow, child: child.workflow };
}

async function run(graph: GraphInput, simulated = false) {
  const { workflow, version } = await createWorkflow(member, { graph, name: 'Parent' });
  const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, simulated, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
  return { workflow, execution };
}

async function failedNotificationsFor(executionId: string) {
  const rows = await db().notification.findMany({ where: { memberId: member.id, kind: 'execution.failed' } });
  return rows.filter((row) => (row.params as { executionId: string }).executionId === executionId);
}

/** Waits until every run of the member is over (error workflows included), so counts are final. */
async function settled() {
  for (let tries = 0; tries < 600; tries += 1) {
    if ((await db().execution.count({ where: { memberId: member.id, status: { in: ['queued', 'running', 'waiting'] } } })) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('runs still in progress');
}

describe('Events 4: every failure is recorded as an incident', () => {
  it('a failed sub-workflow run records its own incident and `execution.failed` notification, and starts its own workflow’s error workflow; its caller records its own', async () => {
    const { handler, child } = await failingWithHandler();
    const { execution } = await run({ nodes: [trigger, node('call', 'flow.sub_workflow', { workflowId: child.id })], connections: line('start', 'call') });
    const parent = await waitForExecution(execution.id);
    expect(parent.error).toMatchObject({ code: 'sub_workflow_failed', nodeId: 'call' });
    await settled();
    const childRun = await db().execution.findFirstOrThrow({ where: { parentExecutionId: parent.id } });
    expect(childRun).toMatchObject({ status: 'failed', startedBy: 'sub_workflow' });
    expect(await db().incident.findMany({ where: { executionId: childRun.id } })).toMatchObject([{ workflowId: child.id, workflowName: 'Child', nodeId: 'bad', nodeName: 'Node bad' }]);
    expect(await db().incident.count({ where: { executionId: parent.id } })).toBe(1);
    expect(await failedNotificationsFor(childRun.id)).toHaveLength(1);
    const handlerRuns = await db().execution.findMany({ where: { workflowId: handler.id } });
    expect(handlerRuns).toHaveLength(1);
    expect(handlerRuns[0]).toMatchObject({ startedBy: 'error_workflow', status: 'succeeded', parentExecutionId: null });
    expect((handlerRuns[0].triggerData as { failure: unknown }).failure).toMatchObject({ executionId: childRun.id, workflowId: child.id, error: { code: 'invalid_parameter' } });
  });

  it('a loop iteration’s failure records no incident and starts no error workflow: the loop fails once, in its run', async () => {
    const { handler, child } = await failingWithHandler();
    const { execution } = await run({ nodes: [trigger, node('loop', 'flow.loop', { workflowId: child.id, items: [1, 2] })], connections: line('start', 'loop') });
    const parent = await waitForExecution(execution.id);
    expect(parent.error).toMatchObject({ code: 'loop_failed', nodeId: 'loop' });
    await settled();
    const iterations = await db().execution.findMany({ where: { parentExecutionId: parent.id } });
    expect(iterations.map((row) => [row.startedBy, row.status])).toEqual([
      ['loop_iteration', 'failed'],
      ['loop_iteration', 'failed'],
    ]);
    expect(await db().incident.count({ where: { executionId: { in: iterations.map((row) => row.id) } } })).toBe(0);
    expect(await failedNotificationsFor(iterations[0].id)).toHaveLength(0);
    expect(await db().incident.count({ where: { executionId: parent.id } })).toBe(1);
    expect(await db().execution.count({ where: { workflowId: handler.id } })).toBe(0);
  });

  it('a sub-workflow run called by a loop iteration is covered by the loop too', async () => {
    const { handler, child } = await failingWithHandler();
    const middle = await createWorkflow(member, { graph: { nodes: [trigger, node('call', 'flow.sub_workflow', { workflowId: child.id })], connections: line('start', 'call') }, name: 'Middle' });
    const { execution } = await run({ nodes: [trigger, node('loop', 'flow.loop', { workflowId: middle.workflow.id, items: [1] })], connections: line('start', 'loop') });
    const parent = await waitForExecution(execution.id);
    expect(parent.error).toMatchObject({ code: 'loop_failed' });
    await settled();
    const grandchild = await db().execution.findFirstOrThrow({ where: { workflowId: child.id } });
    expect(grandchild).toMatchObject({ status: 'failed', startedBy: 'sub_workflow' });
    expect(await db().incident.count({ where: { executionId: grandchild.id } })).toBe(0);
    expect(await db().execution.count({ where: { workflowId: handler.id } })).toBe(0);
  });

  it('a test run’s failure, and its called runs’, record no incident, no notification and start no error workflow', async () => {
    const { handler, child } = await failingWithHandler();
    const { workflow, execution } = await run({ nodes: [trigger, node('call', 'flow.sub_workflow', { workflowId: child.id })], connections: line('start', 'call') }, true);
    await db().workflow.update({ where: { id: workflow.id }, data: { errorWorkflowId: handler.id } });
    const parent = await waitForExecution(execution.id);
    expect(parent).toMatchObject({ simulated: true, status: 'failed' });
    await settled();
    const childRun = await db().execution.findFirstOrThrow({ where: { parentExecutionId: parent.id } });
    expect(childRun).toMatchObject({ simulated: true, status: 'failed' });
    expect(await db().incident.count({ where: { executionId: { in: [parent.id, childRun.id] } } })).toBe(0);
    expect(await failedNotificationsFor(parent.id)).toHaveLength(0);
    expect(await failedNotificationsFor(childRun.id)).toHaveLength(0);
    expect(await db().execution.count({ where: { workflowId: handler.id } })).toBe(0);
  });
});

describe('Events 7: runs started by an error workflow start none', () => {
  it('an error workflow that calls the failing workflow again: the called run records its incident but starts no error workflow (no ping-pong)', async () => {
    const failing = await createWorkflow(member, { graph: failingGraph, name: 'Flaky' });
    // The handler of Flaky calls Flaky again as a sub-workflow.
    const handler = await createWorkflow(member, {
      graph: { nodes: [node('on', 'test.on_failure'), node('again', 'flow.sub_workflow', { workflowId: failing.workflow.id, data: {} })], connections: line('on', 'again') },
      name: 'Retry handler',
    });
    await db().workflow.update({ where: { id: failing.workflow.id }, data: { errorWorkflowId: handler.workflow.id } });
    const execution = await startExecution({ memberId: member.id, workflowId: failing.workflow.id, workflowVersionId: failing.version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    expect((await waitForExecution(execution.id)).status).toBe('failed');
    await settled();
    const handlerRuns = await db().execution.findMany({ where: { workflowId: handler.workflow.id } });
    expect(handlerRuns).toHaveLength(1);
    expect(handlerRuns[0]).toMatchObject({ status: 'failed', error: { code: 'sub_workflow_failed' } });
    const called = await db().execution.findFirstOrThrow({ where: { parentExecutionId: handlerRuns[0].id } });
    expect(called).toMatchObject({ workflowId: failing.workflow.id, status: 'failed' });
    expect(await db().incident.count({ where: { executionId: called.id } })).toBe(1);
  });
});
