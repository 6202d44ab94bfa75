/**
 * Engine rules around the edges of a run: attempts cut off by a dead runner, cancellation, the error
 * workflow's start and never-start cases (spec, Events 6-7), runs called by a step (their failures:
 * called-run-failures.int.test.ts; their call chain: recursion.int.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import { attemptsSeen } from '../../../runner/engine/testing/fixture-nodes';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let member: TestMember;

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  member = await createMember();
});
afterAll(async () => {
  await worker?.stop();
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params });
const line = (...ids: string[]) => ids.slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index + 1] }));

async function run(graph: GraphInput, options: { simulated?: boolean; workflow?: Parameters<typeof createWorkflow>[1]; owner?: TestMember } = {}) {
  const owner = options.owner ?? member;
  const { workflow, version } = await createWorkflow(owner, { graph, ...options.workflow });
  const execution = await startExecution({ memberId: owner.id, workflowId: workflow.id, workflowVersionId: version!.id, simulated: options.simulated, trigger: { type: 'webhook', nodeId: 'start', data: { from: 'test' } } });
  return { workflow, version: version!, execution };
}

/** An execution left by a runner that died mid-attempt: running, its lease expired, one attempt open. */
async function leftByDeadRunner(type: string) {
  const { workflow, version } = await createWorkflow(member, { graph: { nodes: [trigger, node('call', type)], connections: line('start', 'call') } });
  const execution = await db().execution.create({
    data: {
      memberId: member.id,
      workflowId: workflow.id,
      workflowVersionId: version!.id,
      status: 'running',
      triggerType: 'webhook',
      triggerNodeId: 'start',
      triggerData: {},
      timeoutMs: 3_600_000,
      startedAt: new Date(),
      leaseOwner: 'dead-runner',
      leaseUntil: new Date(Date.now() - 1_000),
    },
  });
  await db().executionStep.create({ data: { executionId: execution.id, nodeId: 'start', nodeType: 'trigger.webhook', status: 'succeeded', output: 'main', data: {}, seq: 0, attempt: 1 } });
  await db().executionStep.create({ data: { executionId: execution.id, nodeId: 'call', nodeType: type, status: 'running', attempt: 1, seq: 1, startedAt: new Date(), attemptStartedAt: new Date(Date.now() - 2_000) } });
  return execution;
}

describe('an attempt cut off by a restart', () => {
  it('Nodes acting on a third-party service: an attempt cut off mid-call fails permanently with `step_effect_uncertain` and is never retried blindly', async () => {
    const execution = await leftByDeadRunner('test.external');
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'step_effect_uncertain', kind: 'permanent', nodeId: 'call' });
    expect(done.steps.find((step) => step.nodeId === 'call')!.attempts).toMatchObject([{ attempt: 1, interrupted: true, retried: false, code: 'step_effect_uncertain' }]);
    expect(attemptsSeen.get(`${execution.id}:call`)).toBeUndefined();
  });

  it('Nodes with no external effect are retried after an interruption', async () => {
    const execution = await leftByDeadRunner('test.step');
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'call')!;
    // The interruption consumed no attempt (server/engine/run/interruptions.int.test.ts).
    expect(step.attempt).toBe(1);
    expect(step.attempts).toMatchObject([{ attempt: 1, interrupted: true, retried: true, kind: 'transient' }]);
  }, 20_000);
});

describe('cancel', () => {
  it('no further step starts once the run is cancelled; done steps are not undone', async () => {
    const { execution } = await run({ nodes: [trigger, node('first', 'test.step', { script: ['wait'] }), node('second', 'test.step')], connections: line('start', 'first', 'second') });
    await waitForExecution(execution.id, { statuses: ['waiting'] });
    await db().execution.update({ where: { id: execution.id }, data: { status: 'cancelled', finishedAt: new Date(), waitUntil: null } });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = await waitForExecution(execution.id);
    expect(after.status).toBe('cancelled');
    expect(after.steps.map((step) => step.nodeId)).toEqual(['start', 'first']);
    expect(after.steps[0].status).toBe('succeeded');
  });
});

describe('the error workflow (Events 6-7)', () => {
  const failing: GraphInput = { nodes: [trigger, node('bad', 'test.step', { script: ['permanent'] })], connections: line('start', 'bad') };
  const handlerGraph: GraphInput = { nodes: [{ ...node('on', 'test.on_failure'), id: 'on' }, node('log', 'test.step')], connections: line('on', 'log') };

  async function errorRunsOf(workflowId: string) {
    return db().execution.findMany({ where: { workflowId } });
  }

  it('starts with the failing run’s report under `data.failure`', async () => {
    const handler = await createWorkflow(member, { graph: handlerGraph, name: 'Handler' });
    const { execution, workflow, version } = await run(failing);
    await db().workflow.update({ where: { id: workflow.id }, data: { errorWorkflowId: handler.workflow.id } });
    // The setting is read when the run fails: this run fails after it is set.
    const second = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    await waitForExecution(execution.id);
    await waitForExecution(second.id);
    const started = await errorRunsOf(handler.workflow.id);
    const forSecond = started.find((row) => (row.triggerData as { failure: { executionId: string } }).failure.executionId === second.id);
    expect(forSecond).toMatchObject({ startedBy: 'error_workflow', triggerType: 'workflow_failure', triggerNodeId: 'on' });
    expect((forSecond!.triggerData as { failure: unknown }).failure).toMatchObject({
      workflowId: workflow.id,
      workflowName: 'Test workflow',
      executionId: second.id,
      workflowVersionId: version.id,
      error: { code: 'invalid_parameter', kind: 'permanent', attempts: 1 },
      nodeId: 'bad',
      nodeName: 'Node bad',
      nodeType: 'test.step',
      mailboxId: null,
      messageId: null,
    });
    expect((await waitForExecution(forSecond!.id)).status).toBe('succeeded');
  });

  it.each([
    ['a test run', { simulated: true }, {}],
    ['an error workflow that is paused', {}, { paused: true }],
    ['an error workflow that is not published', {}, { publish: false }],
  ])('never starts for %s', async (_name, runOptions, handlerOptions) => {
    const handler = await createWorkflow(member, { graph: handlerGraph, ...handlerOptions });
    const { workflow, version } = await createWorkflow(member, { graph: failing });
    await db().workflow.update({ where: { id: workflow.id }, data: { errorWorkflowId: handler.workflow.id } });
    const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, ...runOptions, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    expect((await waitForExecution(execution.id)).status).toBe('failed');
    expect(await errorRunsOf(handler.workflow.id)).toHaveLength(0);
  });

  it('never starts for a run itself started by an error workflow, nor for itself', async () => {
    const failingHandler = await createWorkflow(member, { graph: { nodes: [node('on', 'test.on_failure'), node('bad', 'test.step', { script: ['permanent'] })], connections: line('on', 'bad') } });
    await db().workflow.update({ where: { id: failingHandler.workflow.id }, data: { errorWorkflowId: failingHandler.workflow.id } });
    const { workflow, version } = await createWorkflow(member, { graph: failing });
    await db().workflow.update({ where: { id: workflow.id }, data: { errorWorkflowId: failingHandler.workflow.id } });
    const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    await waitForExecution(execution.id);
    const handlerRuns = await waitForRuns(failingHandler.workflow.id, 1);
    expect((await waitForExecution(handlerRuns[0].id)).status).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await errorRunsOf(failingHandler.workflow.id)).toHaveLength(1);
  });

  it('never starts another member’s workflow', async () => {
    const other = await createMember();
    const handler = await createWorkflow(other, { graph: handlerGraph });
    const { workflow, version } = await createWorkflow(member, { graph: failing });
    await db().workflow.update({ where: { id: workflow.id }, data: { errorWorkflowId: handler.workflow.id } });
    const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    await waitForExecution(execution.id);
    expect(await errorRunsOf(handler.workflow.id)).toHaveLength(0);
  });
});

async function waitForRuns(workflowId: string, count: number) {
  for (let tries = 0; tries < 200; tries += 1) {
    const rows = await db().execution.findMany({ where: { workflowId } });
    if (rows.length >= count) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${count} runs of ${workflowId}`);
}

describe('runs called by a step', () => {
  it('starts each child once, holds no slot for them, and resumes the caller with their outputs when they end', async () => {
    const child = await createWorkflow(member, { graph: { nodes: [trigger, node('work', 'test.step')], connections: line('start', 'work') } });
    const { execution } = await run({ nodes: [trigger, node('fan', 'test.children', { workflowId: child.workflow.id, count: 3 })], connections: line('start', 'fan') });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const children = await db().execution.findMany({ where: { parentExecutionId: execution.id } });
    expect(children).toHaveLength(3);
    expect(children.every((row) => row.startedBy === 'sub_workflow' && !row.holdsSlot && row.status === 'succeeded')).toBe(true);
    expect((done.steps.find((step) => step.nodeId === 'fan')!.data as { outputs: unknown[] }).outputs).toHaveLength(3);
  });

  it('fails the caller when a child fails; each failed run records its own incident (Events 4, called-run-failures.int.test.ts)', async () => {
    const child = await createWorkflow(member, { graph: { nodes: [trigger, node('bad', 'test.step', { script: ['permanent'] })], connections: line('start', 'bad') } });
    const { execution } = await run({ nodes: [trigger, node('fan', 'test.children', { workflowId: child.workflow.id, count: 1 })], connections: line('start', 'fan') });
    const done = await waitForExecution(execution.id);
    expect(done.error).toMatchObject({ code: 'sub_workflow_failed', nodeId: 'fan' });
    const [childRun] = await db().execution.findMany({ where: { parentExecutionId: execution.id } });
    expect(await db().incident.count({ where: { executionId: childRun.id } })).toBe(1);
    expect(await db().incident.count({ where: { executionId: execution.id } })).toBe(1);
  });

  it('refuses to call another member’s workflow', async () => {
    const other = await createMember();
    const child = await createWorkflow(other, { graph: { nodes: [trigger], connections: [] } });
    const { execution } = await run({ nodes: [trigger, node('fan', 'test.children', { workflowId: child.workflow.id, count: 1 })], connections: line('start', 'fan') });
    expect((await waitForExecution(execution.id)).error).toMatchObject({ code: 'sub_workflow_not_found' });
  });
});

describe('a run waiting on a decision', () => {
  it('waits without a deadline, then resumes on the decided port when the decision comes', async () => {
    const { resumeWithDecision } = await import('./resume');
    const { execution } = await run({
      nodes: [trigger, node('ask', 'test.decision'), node('yes', 'test.step'), node('no', 'test.step')],
      connections: [...line('start', 'ask'), { from: 'ask', output: 'approve', to: 'yes' }, { from: 'ask', output: 'reject', to: 'no' }],
    });
    const waiting = await waitForExecution(execution.id, { statuses: ['waiting'] });
    expect(waiting.waitUntil).toBeNull();
    expect(await db().$transaction((tx) => resumeWithDecision({ executionId: execution.id, nodeId: 'ask', decision: 'reject' }, tx))).toBe(true);
    const done = await waitForExecution(execution.id);
    expect(Object.fromEntries(done.steps.map((step) => [step.nodeId, step.status]))).toMatchObject({ ask: 'succeeded', yes: 'skipped', no: 'succeeded' });
    expect(await db().$transaction((tx) => resumeWithDecision({ executionId: execution.id, nodeId: 'ask', decision: 'approve' }, tx))).toBe(false);
  });

  it('a decision that arrives while the step is still on its way to suspend is not lost (the run resumes at once, not at the deadline)', async () => {
    const { resumeWithDecision } = await import('./resume');
    const { execution } = await run({
      nodes: [trigger, node('ask', 'test.slow_decision', { pauseMs: 1_500 }), node('yes', 'test.step'), node('no', 'test.step')],
      connections: [...line('start', 'ask'), { from: 'ask', output: 'approve', to: 'yes' }, { from: 'ask', output: 'reject', to: 'no' }],
    });
    let step = null;
    while (step?.status !== 'running') {
      step = await db().executionStep.findUnique({ where: { executionId_nodeId: { executionId: execution.id, nodeId: 'ask' } } });
      if (step?.status === 'waiting') throw new Error('the step suspended before the test could decide while it ran');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await db().$transaction((tx) => resumeWithDecision({ executionId: execution.id, nodeId: 'ask', decision: 'approve' }, tx))).toBe(true);
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(Object.fromEntries(done.steps.map((candidate) => [candidate.nodeId, candidate.status]))).toMatchObject({ ask: 'succeeded', yes: 'succeeded', no: 'skipped' });
  });
});

describe('the execution actor', () => {
  it('a run acts only while its member is active: a suspended member’s run fails instead of acting for them', async () => {
    const owner = await createMember();
    const { workflow, version } = await createWorkflow(owner, { graph: { nodes: [trigger, node('act', 'test.keyed', { effectKey: 'row' })], connections: line('start', 'act') } });
    await db().member.update({ where: { id: owner.id }, data: { status: 'suspended' } });
    const execution = await startExecution({ memberId: owner.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'credential_missing', kind: 'permanent' });
  });
});
