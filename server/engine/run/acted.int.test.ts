/**
 * Issue 19 §3: "Runs that did nothing (a condition led nowhere) are distinguishable in the executions
 * list from runs that acted ... so 'Succeeded' is not read as 'it worked'." With the real runner, each
 * way a run finishes records `acted` (server/engine/run/acted.ts), and the list filters on it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { cancelExecutions } from './cancel';
import { replayExecution } from './replay';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { createWorkflow } from '../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';

await useEngineWorker({ concurrency: 4 });
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params });
const link = (from: string, to: string, output = 'main') => ({ from, output, to });

/** start → condition → (true) an acting step: the condition's script decides whether the run acts. */
const conditionGraph = (branch: 'branch_true' | 'branch_false'): GraphInput => ({
  nodes: [trigger, node('check', 'test.branch', { script: [branch] }), node('act', 'test.keyed', { effectKey: 'file' })],
  connections: [link('start', 'check'), link('check', 'act', 'true')],
});

async function runOf(graph: GraphInput, options: { simulated?: boolean; name?: string } = {}) {
  const { workflow, version } = await createWorkflow(member, { graph, name: options.name ?? 'Acting' });
  const execution = await startExecution({
    memberId: member.id,
    workflowId: workflow.id,
    workflowVersionId: version!.id,
    simulated: options.simulated ?? false,
    trigger: { type: 'webhook', nodeId: 'start', data: {} },
  });
  return { workflow, execution };
}

describe('issue 19 §3: a run records whether it acted when it finishes', () => {
  it('a run whose condition led nowhere succeeds with acted false; one that took the acting branch has acted true', async () => {
    const nowhere = await runOf(conditionGraph('branch_false'));
    const acting = await runOf(conditionGraph('branch_true'));
    const [idle, worked] = [await waitForExecution(nowhere.execution.id), await waitForExecution(acting.execution.id)];
    expect(idle.status).toBe('succeeded');
    expect(idle.steps.find((step) => step.nodeId === 'act')?.status ?? 'skipped').toBe('skipped');
    expect(idle.acted).toBe(false);
    expect(worked.status).toBe('succeeded');
    expect(worked.acted).toBe(true);
  });

  it('an effect reported by a step held until the run’s end counts: the end writes that step and `acted` in one statement', async () => {
    const { execution } = await runOf({ nodes: [trigger, node('note', 'test.reported_effect'), node('after', 'test.step')], connections: [link('start', 'note'), link('note', 'after')] });
    const done = await waitForExecution(execution.id);
    expect(done).toMatchObject({ status: 'succeeded', acted: true });
    expect(done.steps.find((step) => step.nodeId === 'note')).toMatchObject({ status: 'succeeded', effects: [{ kind: 'test', description: 'reported by the node' }] });
    const quiet = await runOf({ nodes: [trigger, node('after', 'test.step')], connections: [link('start', 'after')] });
    expect(await waitForExecution(quiet.execution.id)).toMatchObject({ status: 'succeeded', acted: false });
  });

  it('a test run that would have acted counts its simulated effects', async () => {
    const { execution } = await runOf(conditionGraph('branch_true'), { simulated: true });
    expect(await waitForExecution(execution.id)).toMatchObject({ status: 'succeeded', acted: true });
  });

  it('a run whose effects happened in the runs it called acted; one whose called runs did nothing did not', async () => {
    const actingChild = await createWorkflow(member, { graph: { nodes: [trigger, node('act', 'test.keyed', { effectKey: 'k' })], connections: [link('start', 'act')] }, name: 'Child' });
    const idleChild = await createWorkflow(member, { graph: { nodes: [trigger, node('noop', 'test.step')], connections: [link('start', 'noop')] }, name: 'Idle child' });
    const callerOf = (workflowId: string): GraphInput => ({ nodes: [trigger, node('fan', 'test.children', { workflowId, count: 2 })], connections: [link('start', 'fan')] });
    const acting = await runOf(callerOf(actingChild.workflow.id), { name: 'Caller' });
    const idle = await runOf(callerOf(idleChild.workflow.id), { name: 'Idle caller' });
    expect(await waitForExecution(acting.execution.id)).toMatchObject({ status: 'succeeded', acted: true });
    expect(await waitForExecution(idle.execution.id)).toMatchObject({ status: 'succeeded', acted: false });
  });

  it('a replay from the failed step does not count the effects of the steps it kept from the original', async () => {
    const graph = (script: string[]): GraphInput => ({
      nodes: [trigger, node('act', 'test.keyed', { effectKey: 'once' }), node('after', 'test.step', { script })],
      connections: [link('start', 'act'), link('act', 'after')],
    });
    const { workflow, execution } = await runOf(graph(['permanent']), { name: 'Replayed' });
    expect(await waitForExecution(execution.id)).toMatchObject({ status: 'failed', acted: true });
    const version = await db().workflowVersion.create({
      data: { workflowId: workflow.id, number: 2, graph: { ...graph(['ok']), id: workflow.id, workflowId: workflow.id } as object, triggerType: 'webhook', triggerNodeId: 'start', createdBy: member.id },
    });
    await db().workflow.update({ where: { id: workflow.id }, data: { publishedVersionId: version.id } });
    const replay = await replayExecution(member.id, execution.id, { from: 'failed_step', version: 'published' });
    const done = await waitForExecution(replay.executionId);
    expect(done.steps.find((step) => step.nodeId === 'act')?.copiedFrom).not.toBeNull();
    expect(done).toMatchObject({ status: 'succeeded', acted: false });
  });

  it('a cancelled run records whether it acted before it was stopped', async () => {
    const { execution } = await runOf(
      { nodes: [trigger, node('act', 'test.keyed', { effectKey: 'before' }), node('stuck', 'test.step', { script: ['hang'] })], connections: [link('start', 'act'), link('act', 'stuck')] },
      { name: 'Cancelled' },
    );
    for (let tries = 0; tries < 600; tries += 1) {
      if ((await db().executionStep.count({ where: { executionId: execution.id, nodeId: 'act', status: 'succeeded' } })) === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await cancelExecutions(member.id, [execution.id]);
    expect(await waitForExecution(execution.id)).toMatchObject({ status: 'cancelled', acted: true });
  });

  it('the executions list shows `acted` and filters effects=with|without on it; runs in progress match neither', async () => {
    const nowhere = await runOf(conditionGraph('branch_false'), { name: 'Listed' });
    const acting = await runOf(conditionGraph('branch_true'), { name: 'Listed' });
    await Promise.all([waitForExecution(nowhere.execution.id), waitForExecution(acting.execution.id)]);
    const running = await runOf({ nodes: [trigger, node('stuck', 'test.step', { script: ['hang'] })], connections: [link('start', 'stuck')] }, { name: 'Running' });
    await waitForExecution(running.execution.id, { statuses: ['running'] });

    const list = async (query: string) => {
      const response = await call('GET', `/api/v1/executions?limit=200${query}`, { cookie: member.cookie });
      expect(response.status).toBe(200);
      return response.body.executions as { id: string; acted: boolean | null }[];
    };
    const all = await list('');
    expect(all.find((item) => item.id === nowhere.execution.id)?.acted).toBe(false);
    expect(all.find((item) => item.id === acting.execution.id)?.acted).toBe(true);
    expect(all.find((item) => item.id === running.execution.id)?.acted).toBeNull();

    const withEffects = await list('&effects=with');
    const without = await list('&effects=without');
    expect(withEffects.map((item) => item.id)).toContain(acting.execution.id);
    expect(withEffects.every((item) => item.acted === true)).toBe(true);
    expect(without.map((item) => item.id)).toContain(nowhere.execution.id);
    expect(without.every((item) => item.acted === false)).toBe(true);
    expect([...withEffects, ...without].map((item) => item.id)).not.toContain(running.execution.id);
    await cancelExecutions(member.id, [running.execution.id]);
  });

  it('answers an unknown effects value with 400 request.bad_request', async () => {
    const response = await call('GET', '/api/v1/executions?effects=maybe', { cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});
