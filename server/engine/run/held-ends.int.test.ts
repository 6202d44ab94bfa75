/**
 * Held ends (step-journal.ts): the success of a step with an outside effect, whose row was written when its attempt
 * started, is saved by the next write of the run: the run's close when that step ends the run (one durable commit
 * instead of two), the next step's first write, or, before an effect-free step computes anything, a write of its
 * own. The saved row is the one a write of its own would have left.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, pool } from '../../core/db';
import { cancelExecutionsIn } from './cancel';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { createWorkflow } from '../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';

await useEngineWorker({ concurrency: 2 });
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params });
const link = (from: string, to: string) => ({ from, output: 'main', to });

async function runGraph(nodes: ReturnType<typeof node>[], order: string[]) {
  const connections = ['start', ...order].slice(0, -1).map((from, index) => link(from, order[index]!));
  const { workflow, version } = await createWorkflow(member, { graph: { nodes: [trigger, ...nodes], connections } });
  const { id } = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { n: 1 } } });
  return { id, done: await waitForExecution(id) };
}

/** The statements sent on the engine's pool that write this run's steps or its end (their first parameter is the run). */
function stepStatementsOf(calls: unknown[][], executionId: string): string[] {
  return calls
    .map(([config]) => config as { text?: string; values?: unknown[] })
    .filter((config) => config?.values?.[0] === executionId && /(INSERT INTO|UPDATE) execution_steps|UPDATE executions SET status/.test(config.text ?? ''))
    .map((config) => config.text!);
}

describe('the success of a step with an outside effect is saved with the run’s next write', () => {
  it('when it ends the run, by the run’s close: two statements write the run’s steps and end, and the row is whole', async () => {
    const query = vi.spyOn(pool(), 'query');
    const { id, done } = await runGraph([node('effect', 'test.keyed', { effectKey: 'k1' })], ['effect']);
    expect(done.status).toBe('succeeded');
    // The effect step's start (with the trigger's held step) and the close (with the effect step's success).
    expect(stepStatementsOf(query.mock.calls, id)).toHaveLength(2);

    const row = await db().executionStep.findFirstOrThrow({ where: { executionId: id, nodeId: 'effect' } });
    expect(row).toMatchObject({ status: 'succeeded', output: 'main', attempt: 1, attemptStartedAt: null, nextAttemptAt: null, dataTruncated: false });
    expect(row.data).toEqual({ attempt: 1, input: { n: 1 } });
    expect(row.effects).toEqual([{ kind: 'test', description: 'test effect k1' }]);
    expect(row.input).toMatchObject({ effectKey: 'k1' });
    expect(row.durationMs).not.toBeNull();
    expect(row.finishedAt).not.toBeNull();
    expect(row.finishedAt!.getTime()).toBeGreaterThanOrEqual(row.startedAt!.getTime());
    const run = await db().execution.findUniqueOrThrow({ where: { id }, select: { acted: true } });
    expect(run.acted).toBe(true);
  });

  it('before an effect-free step after it computes anything: that step finds it saved', async () => {
    const { done } = await runGraph([node('effect', 'test.keyed', { effectKey: 'k2' }), node('probe', 'test.saved_steps')], ['effect', 'probe']);
    expect(done.status).toBe('succeeded');
    const probe = done.steps.find((step) => step.nodeId === 'probe');
    expect(probe?.data).toEqual({ saved: [['start', 'succeeded'], ['effect', 'succeeded']] });
  });

  it('by the first write of a step with an effect after it, and each step keeps its own row', async () => {
    const query = vi.spyOn(pool(), 'query');
    const { id, done } = await runGraph([node('first', 'test.keyed', { effectKey: 'a' }), node('second', 'test.keyed', { effectKey: 'b' }), node('probe', 'test.saved_steps')], ['first', 'second', 'probe']);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((step) => [step.nodeId, step.status])).toEqual([
      ['start', 'succeeded'],
      ['first', 'succeeded'],
      ['second', 'succeeded'],
      ['probe', 'succeeded'],
    ]);
    expect(done.steps.find((step) => step.nodeId === 'probe')?.data).toEqual({ saved: [['start', 'succeeded'], ['first', 'succeeded'], ['second', 'succeeded']] });
    // first's start; second's start with first's success; second's success before the probe; the close.
    expect(stepStatementsOf(query.mock.calls, id)).toHaveLength(4);
    const rows = await db().executionStep.findMany({ where: { executionId: id, nodeId: { in: ['first', 'second'] } }, orderBy: { seq: 'asc' } });
    expect(rows.map((row) => [row.nodeId, row.effects])).toEqual([
      ['first', [{ kind: 'test', description: 'test effect a' }]],
      ['second', [{ kind: 'test', description: 'test effect b' }]],
    ]);
  });

  it('a run cancelled while the step runs still shows the step’s success and its effect (what an undo reads)', async () => {
    // `slow` ends 300 ms after the effect, whatever the cancel: the end is then held, and the close's guard fails.
    const graph = { nodes: [trigger, node('effect', 'test.keyed', { effectKey: 'k4', script: ['slow'] })], connections: [link('start', 'effect')] };
    const { workflow, version } = await createWorkflow(member, { graph });
    const { id } = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    const deadline = Date.now() + 10_000;
    while (!(await db().executionStep.findFirst({ where: { executionId: id, nodeId: 'effect', status: 'running' } })) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const outcome = await db().$transaction((tx) => cancelExecutionsIn(tx, member.id, [id]));
    expect(outcome.cancelled).toEqual([id]);
    expect((await waitForExecution(id)).status).toBe('cancelled');
    // The advance's end comes after the cancel: wait for the step's row to settle.
    const settled = Date.now() + 5_000;
    let row = await db().executionStep.findFirstOrThrow({ where: { executionId: id, nodeId: 'effect' } });
    while (row.status !== 'succeeded' && Date.now() < settled) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      row = await db().executionStep.findFirstOrThrow({ where: { executionId: id, nodeId: 'effect' } });
    }
    expect(row).toMatchObject({ status: 'succeeded', attemptStartedAt: null });
    expect(row.effects).toEqual([{ kind: 'test', description: 'test effect k4' }]);
  });

  it('a step that fails after it is saved failed, and the effect step before it succeeded', async () => {
    const { id, done } = await runGraph([node('effect', 'test.keyed', { effectKey: 'k3' }), node('broken', 'test.step', { script: ['permanent'] })], ['effect', 'broken']);
    expect(done.status).toBe('failed');
    const rows = await db().executionStep.findMany({ where: { executionId: id }, orderBy: { seq: 'asc' }, select: { nodeId: true, status: true } });
    expect(rows).toEqual([
      { nodeId: 'start', status: 'succeeded' },
      { nodeId: 'effect', status: 'succeeded' },
      { nodeId: 'broken', status: 'failed' },
    ]);
  });
});
