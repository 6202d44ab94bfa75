/**
 * Attempts cut off by a runner that stopped (issue 18): an interruption of a node with no external
 * effect consumes no attempt; a run taken over is a suspect until one of its attempts ends on its own:
 * advanced in careful mode (every attempt written when it starts) and alone among suspects in its
 * process; crash loops end after a bound (`step_crash_loop`, `execution_crash_loop`).
 * Executions here are left as a dead runner leaves them: running, the lease expired with its owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { startExecution } from './start';
import { cancelExecutions } from './cancel';
import { createMember, type TestMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import { attemptsSeen } from '../../../runner/engine/testing/fixture-nodes';
import { leftRunning } from '../../../runner/engine/testing/left-running';

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
const node = (id: string, type: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params, ...extra });
const line = (...ids: string[]) => ids.slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index + 1] }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Left {
  /** The `call` step as the dead runner left it; absent: the runner died before writing it. */
  open?: { attempt: number; attempts?: object[] };
  /** Take-overs before this one (the claim that finds the expired lease adds one). */
  takeovers?: number;
}

/** An execution of start → call (`graph`) left by a runner that died while holding its lease. */
async function leftByDeadRunner(graph: GraphInput, left: Left) {
  const { workflow, version } = await createWorkflow(member, { graph });
  const execution = await leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, takeovers: left.takeovers });
  if (left.open) {
    const type = (graph.nodes ?? []).find((candidate) => candidate.id === 'call')!.type;
    await db().executionStep.create({
      data: { executionId: execution.id, nodeId: 'call', nodeType: type, status: 'running', attempt: left.open.attempt, attempts: left.open.attempts ?? [], seq: 1, startedAt: new Date(), attemptStartedAt: new Date(Date.now() - 2_000) },
    });
  }
  return execution;
}

const oneStep = (type: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): GraphInput => ({
  nodes: [trigger, node('call', type, params, extra)],
  connections: line('start', 'call'),
});

/**
 * Waits until the worker has let these runs go (no job left for them): an advance notices a cancel at
 * its next heartbeat (every 4 s), and until then holds one of the worker's slots, which the tests
 * measuring runs side by side need.
 */
async function letGo(ids: string[]): Promise<void> {
  const keys = ids.map((id) => `execution:${id}`);
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
    const [{ n }] = await db().$queryRawUnsafe<{ n: number }[]>('SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ANY($1::text[])', keys);
    if (n === 0) return;
  }
}

const interruptedEntry = (attempt: number) => ({ attempt, at: new Date().toISOString(), code: 'internal', message: 'The attempt was interrupted.', kind: 'transient', interrupted: true, retried: true });

describe('an interruption of a node with no external effect', () => {
  it('consumes no attempt: cut off on its last attempt, the step is retried, not failed', async () => {
    const execution = await leftByDeadRunner(oneStep('test.step', { script: ['ok'] }, { retry: { maxAttempts: 1, delayMs: 1_000 } }), { open: { attempt: 1 } });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'call')!;
    expect(step.status).toBe('succeeded');
    expect(step.attempt).toBe(1);
    expect(step.attempts).toMatchObject([{ attempt: 1, interrupted: true, retried: true, kind: 'transient' }]);
    expect(attemptsSeen.get(`${execution.id}:call`)).toBe(1);
  }, 20_000);

  it('a temporary failure after it still counts: the attempts are the node’s, the interruptions are not', async () => {
    const execution = await leftByDeadRunner(oneStep('test.step', { script: ['transient'] }, { retry: { maxAttempts: 2, delayMs: 1_000 } }), { open: { attempt: 2 } });
    const done = await waitForExecution(execution.id);
    expect(done.error).toMatchObject({ code: 'http_error', attempts: 2, nodeId: 'call' });
    expect(done.steps.find((candidate) => candidate.nodeId === 'call')!.attempts).toMatchObject([
      { attempt: 2, interrupted: true, retried: true },
      { attempt: 2, code: 'http_error', retried: false },
    ]);
  }, 20_000);
});

describe('the crash-loop bound', () => {
  it('a run taken over 3 times in a row with a step open fails that step permanently with `step_crash_loop`; it is not run again', async () => {
    const execution = await leftByDeadRunner(oneStep('test.step', { script: ['ok'] }, { retry: { maxAttempts: 5, delayMs: 1_000 } }), {
      open: { attempt: 1, attempts: [interruptedEntry(1), interruptedEntry(1)] },
      takeovers: 2,
    });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'step_crash_loop', kind: 'permanent', nodeId: 'call', nodeType: 'test.step', details: { crashes: 3, limit: 3 } });
    const step = done.steps.find((candidate) => candidate.nodeId === 'call')!;
    expect(step.status).toBe('failed');
    expect((step.attempts as object[]).at(-1)).toMatchObject({ code: 'step_crash_loop', interrupted: true, retried: false });
    expect(attemptsSeen.get(`${execution.id}:call`)).toBeUndefined();
    // A failure like any other: an incident is recorded.
    expect(await db().incident.count({ where: { executionId: execution.id } })).toBe(1);
  });

  it('the crash that left no open attempt (a first attempt not written yet) counts too: the streak is the run’s', async () => {
    // Take-over 1 found nothing open, take-over 2 (this one) finds the step open: a streak of 2, retried.
    const retried = await leftByDeadRunner(oneStep('test.step', { script: ['ok'] }, { retry: { maxAttempts: 5, delayMs: 1_000 } }), { open: { attempt: 1 }, takeovers: 1 });
    expect((await waitForExecution(retried.id)).status).toBe('succeeded');
    // Take-overs 1 and 2 found nothing open, the third finds the step open: the bound.
    const failed = await leftByDeadRunner(oneStep('test.step', { script: ['ok'] }, { retry: { maxAttempts: 5, delayMs: 1_000 } }), { open: { attempt: 1 }, takeovers: 2 });
    expect((await waitForExecution(failed.id)).error).toMatchObject({ code: 'step_crash_loop', nodeId: 'call', details: { crashes: 3 } });
  }, 20_000);

  it('an advance that survives ends the streak: restarts spread over a run never add up', async () => {
    const graph: GraphInput = { nodes: [trigger, node('call', 'test.step'), node('next', 'test.step')], connections: line('start', 'call', 'next') };
    const execution = await leftByDeadRunner(graph, { takeovers: 1 });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.leaseTakeovers).toBe(0);
  });

  it('steps that merely run again after a crash (held in memory when it came) do not end the streak', async () => {
    // Taken over with nothing open: `tag` runs again and ends on its own while `call` hangs. The
    // crash may have been `call`'s doing, so the run stays a suspect (careful mode) until it shows otherwise.
    const graph: GraphInput = { nodes: [trigger, node('tag', 'test.step'), node('call', 'test.step', { script: ['hang'] })], connections: line('start', 'tag', 'call') };
    const execution = await leftByDeadRunner(graph, {});
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100)) {
      if (await db().executionStep.findFirst({ where: { executionId: execution.id, nodeId: 'call', status: 'running' } })) break;
    }
    const tag = await db().executionStep.findFirstOrThrow({ where: { executionId: execution.id, nodeId: 'tag' } });
    expect(tag.status).toBe('succeeded');
    // Careful mode wrote `call` when it started, and the streak is still the take-over's.
    const call = await db().executionStep.findFirstOrThrow({ where: { executionId: execution.id, nodeId: 'call' } });
    expect(call.attemptStartedAt).not.toBeNull();
    expect((await db().execution.findUniqueOrThrow({ where: { id: execution.id } })).leaseTakeovers).toBe(1);
    await cancelExecutions(member.id, [execution.id]);
    await letGo([execution.id]);
  }, 20_000);

  it('the node’s `onError` still applies to `step_crash_loop`', async () => {
    const execution = await leftByDeadRunner(oneStep('test.step', { script: ['ok'] }, { onError: 'continue' }), {
      open: { attempt: 1, attempts: [interruptedEntry(1), interruptedEntry(1)] },
      takeovers: 2,
    });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((candidate) => candidate.nodeId === 'call')!.error).toMatchObject({ code: 'step_crash_loop' });
  });

  it('a run taken over 3 times in a row with no step to blame (its advancer died between steps) fails `execution_crash_loop` before anything runs again', async () => {
    const execution = await leftByDeadRunner(oneStep('test.step', { script: ['ok'] }), { takeovers: 2 });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'execution_crash_loop', kind: 'permanent', nodeId: null, details: { crashes: 3, limit: 3 } });
    expect(done.steps.map((step) => step.nodeId)).toEqual(['start']);
    expect(attemptsSeen.get(`${execution.id}:call`)).toBeUndefined();
  });
});

describe('careful mode', () => {
  async function stepRowWhileRunning(executionId: string) {
    for (let tries = 0; tries < 200 && !attemptsSeen.get(`${executionId}:call`); tries += 1) await sleep(25);
    expect(attemptsSeen.get(`${executionId}:call`)).toBe(1);
    return db().executionStep.findUnique({ where: { executionId_nodeId: { executionId, nodeId: 'call' } } });
  }

  it('once a run has been taken over, every attempt is written when it starts, so the next crash is pinned to its step', async () => {
    const graph = oneStep('test.step', { script: ['hang'] }, { timeoutMs: 5_000, onError: 'continue' });
    // A run never interrupted: the first attempt of an effect-free node is written only when it ends (the saving).
    const { workflow, version } = await createWorkflow(member, { graph });
    const fresh = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    expect(await stepRowWhileRunning(fresh.id)).toBeNull();
    // Taken over once (the runner died before writing anything): the same attempt is open while it runs.
    const interrupted = await leftByDeadRunner(graph, {});
    expect(await stepRowWhileRunning(interrupted.id)).toMatchObject({ status: 'running', attempt: 1, attemptStartedAt: expect.any(Date) });
    for (const id of [fresh.id, interrupted.id]) await db().execution.update({ where: { id }, data: { status: 'cancelled', finishedAt: new Date() } });
    await letGo([fresh.id, interrupted.id]);
  }, 20_000);

  const spansOf = async (runs: { id: string }[]) => {
    const calls = [];
    for (const run of runs) calls.push((await waitForExecution(run.id)).steps.find((step) => step.nodeId === 'call')!);
    expect(calls.every((step) => step.status === 'succeeded')).toBe(true);
    return calls.map((step) => [step.startedAt!.getTime(), step.finishedAt!.getTime()]).sort((a, b) => a[0] - b[0]);
  };

  it('runs taken over for the first time recover side by side: one runner crash does not queue its runs behind each other', async () => {
    const graph = oneStep('test.step', { script: ['slow'] });
    const runs = [];
    for (let index = 0; index < 3; index += 1) runs.push(await leftByDeadRunner(graph, {}));
    const spans = await spansOf(runs);
    expect(spans.some((span, index) => index > 0 && span[0] < spans[index - 1][1])).toBe(true);
  }, 20_000);

  it('runs taken over again in a row are advanced one at a time in a process, so a runner that dies again is blamed on one of them only', async () => {
    const graph = oneStep('test.step', { script: ['slow'] });
    const suspects = [];
    for (let index = 0; index < 3; index += 1) suspects.push(await leftByDeadRunner(graph, { takeovers: 1 }));
    // Written when they started (careful mode) and when they ended: no two attempts overlapped.
    const spans = await spansOf(suspects);
    for (let index = 1; index < spans.length; index += 1) expect(spans[index][0]).toBeGreaterThanOrEqual(spans[index - 1][1]);
  }, 20_000);

  it('a step keeps the parameters it received, also when its attempt was written only when it ended', async () => {
    const { workflow, version } = await createWorkflow(member, { graph: oneStep('test.step', { script: ['ok'], label: '{{ trigger.name }}' }) });
    const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { name: 'Ada' } } });
    const done = await waitForExecution(execution.id);
    expect(done.steps.find((step) => step.nodeId === 'call')!.input).toEqual({ script: ['ok'], label: 'Ada' });
  });
});
