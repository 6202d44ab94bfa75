/**
 * A member's live runs that hold no slot (sub-workflow runs, loop iterations, test runs, evaluation
 * runs) are capped (issue 18, item 3: MEMBER_MAX_SLOTLESS_RUNS, default 500; 3 for this file's
 * process). A step that would start a called run beyond the cap is postponed, no attempt consumed,
 * until room frees; still without room after MEMBER_SLOTLESS_WAIT_SECONDS it fails `member_run_limit`
 * and its node's `onError` applies. Other members are not held up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { resumeWithDecision } from './resume';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';

process.env.MEMBER_MAX_SLOTLESS_RUNS = '3';
resetConfigForTests();
const databaseUrl = await useTestDatabase();
let worker: EngineWorker;

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl, { concurrency: 8 });
});
afterAll(async () => {
  await worker?.stop();
  delete process.env.MEMBER_MAX_SLOTLESS_RUNS;
  resetConfigForTests();
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}, onError: 'fail' | 'errorPort' = 'fail') => ({ id, type, version: 1, name: `Node ${id}`, params, onError });
const line = (...ids: string[]) => ids.slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index + 1] }));

async function run(member: TestMember, graph: GraphInput, simulated = false) {
  const { workflow, version } = await createWorkflow(member, { graph });
  return startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, simulated, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
}

/** Three test runs waiting on a decision: live runs holding no slot, the whole cap of the member. */
async function fillTheCap(member: TestMember) {
  const graph = { nodes: [trigger, node('ask', 'test.decision')], connections: line('start', 'ask') };
  const blockers = [];
  for (let index = 0; index < 3; index += 1) blockers.push(await run(member, graph, true));
  for (const blocker of blockers) await waitForExecution(blocker.id, { statuses: ['waiting'] });
  return blockers;
}

async function callerOf(member: TestMember, onError: 'fail' | 'errorPort' = 'fail') {
  const child = await createWorkflow(member, { graph: { nodes: [trigger, node('work', 'test.step')], connections: line('start', 'work') } });
  return run(member, { nodes: [trigger, node('call', 'flow.sub_workflow', { workflowId: child.workflow.id }, onError)], connections: line('start', 'call') });
}

/** The step, once it has been postponed for want of room (running, a next attempt time, no child). */
async function postponed(executionId: string, nodeId: string) {
  for (let tries = 0; tries < 600; tries += 1) {
    const step = await db().executionStep.findUnique({ where: { executionId_nodeId: { executionId, nodeId } } });
    if (step?.status === 'running' && step.nextAttemptAt) return step;
    if (step && step.status !== 'running') throw new Error(`step ${nodeId} is ${step.status}, not postponed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`step ${nodeId} was not postponed`);
}

async function slotlessLive(memberId: string) {
  return db().execution.count({ where: { memberId, holdsSlot: false, status: { in: ['queued', 'running', 'waiting'] } } });
}

describe('the cap on a member’s live runs holding no slot', () => {
  it('a called run beyond the cap waits (no attempt consumed) while another member’s called runs start; it starts when room frees', async () => {
    const [first, second] = [await createMember(), await createMember()];
    const blockers = await fillTheCap(first);
    const waiting = await callerOf(first);
    const step = await postponed(waiting.id, 'call');
    expect(step.attempts).toEqual([]);
    expect(await db().execution.count({ where: { parentExecutionId: waiting.id } })).toBe(0);

    const other = await waitForExecution((await callerOf(second)).id);
    expect(other.status).toBe('succeeded');
    expect(await db().execution.count({ where: { parentExecutionId: other.id, status: 'succeeded' } })).toBe(1);
    // Still held back while the first member is at the cap.
    expect(await db().execution.count({ where: { parentExecutionId: waiting.id } })).toBe(0);
    expect(await slotlessLive(first.id)).toBe(3);

    expect(await db().$transaction((tx) => resumeWithDecision({ executionId: blockers[0].id, nodeId: 'ask', decision: 'approve' }, tx))).toBe(true);
    const done = await waitForExecution(waiting.id);
    expect(done.status).toBe('succeeded');
    const call = done.steps.find((candidate) => candidate.nodeId === 'call')!;
    expect(call).toMatchObject({ status: 'succeeded', attempt: 1, attempts: [] });
  });

  it('a loop wider than the cap is slowed, never refused: every item runs and the member never holds more live runs than the cap', async () => {
    const member = await createMember();
    const child = await createWorkflow(member, { graph: { nodes: [trigger, node('work', 'test.step', { script: ['slow'] })], connections: line('start', 'work') } });
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    const loop = await run(member, { nodes: [trigger, node('loop', 'flow.loop', { workflowId: child.workflow.id, items, concurrency: 8 })], connections: line('start', 'loop') });
    let most = 0;
    for (;;) {
      most = Math.max(most, await slotlessLive(member.id));
      const row = await db().execution.findUniqueOrThrow({ where: { id: loop.id }, select: { status: true } });
      if (!['queued', 'running', 'waiting'].includes(row.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const done = await waitForExecution(loop.id);
    expect(done.status).toBe('succeeded');
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3);
    const step = done.steps.find((candidate) => candidate.nodeId === 'loop')!;
    expect(step.loop).toMatchObject({ total: 8, started: 8, succeeded: 8, failed: 0, status: 'done' });
    expect((step.data as { results: unknown[] }).results.every((result) => result !== null)).toBe(true);
  }, 60_000);

  it('a start still without room after MEMBER_SLOTLESS_WAIT_SECONDS fails `member_run_limit` (permanent) and the node’s `onError` applies', async () => {
    const member = await createMember();
    await fillTheCap(member);
    const waiting = await callerOf(member);
    await postponed(waiting.id, 'call');
    // The postponement began longer ago than the bound (default 600 s).
    await db().$executeRaw`UPDATE execution_effects SET created_at = now() - interval '11 minutes' WHERE execution_id = ${waiting.id}::uuid AND kind = 'member_run_limit'`;
    const done = await waitForExecution(waiting.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'member_run_limit', kind: 'permanent', nodeId: 'call', details: { limit: 3 } });
    expect(await db().execution.count({ where: { parentExecutionId: waiting.id } })).toBe(0);
  });
});
