/**
 * The engine's run rules (spec: Run failure handling, States and transitions: Execution, Events),
 * each shown by the smallest graph of fixture nodes, run by a real graphile-worker with the sweeper.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { startExecution } from './start';
import { admissionLock } from './admission';
import { createMember, type TestMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import { attemptsSeen, performedEffects } from '../../../runner/engine/testing/fixture-nodes';

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

type NodeSpec = { id: string; type?: string; script?: string[]; effectKey?: string; onError?: 'fail' | 'continue' | 'errorPort'; retry?: { maxAttempts: number; delayMs: number }; timeoutMs?: number; disabled?: boolean };

/** trigger → each node in order (connections on `main` unless given). */
function chain(nodes: NodeSpec[], connections?: GraphInput['connections']): GraphInput {
  return {
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
      ...nodes.map((node) => ({
        id: node.id,
        type: node.type ?? 'test.step',
        version: 1,
        name: `Node ${node.id}`,
        params: { script: node.script ?? ['ok'], ...(node.effectKey ? { effectKey: node.effectKey } : {}) },
        onError: node.onError ?? 'fail',
        ...(node.retry ? { retry: node.retry } : {}),
        ...(node.timeoutMs ? { timeoutMs: node.timeoutMs } : {}),
        ...(node.disabled ? { disabled: true } : {}),
      })),
    ],
    connections: connections ?? ['start', ...nodes.map((node) => node.id)].slice(0, -1).map((from, index) => ({ from, output: 'main', to: nodes[index].id })),
  };
}

const fast = { maxAttempts: 3, delayMs: 1_000 };

async function start(graph: GraphInput, options: { workflow?: Parameters<typeof createWorkflow>[1]; simulated?: boolean; timeoutMs?: number; data?: Record<string, unknown> } = {}) {
  const { workflow, version } = await createWorkflow(member, { graph, ...options.workflow });
  const execution = await startExecution({
    memberId: member.id,
    workflowId: workflow.id,
    workflowVersionId: version!.id,
    simulated: options.simulated,
    timeoutMs: options.timeoutMs,
    trigger: { type: 'webhook', nodeId: 'start', data: options.data ?? { hello: 'world' } },
  });
  return { workflow, execution };
}

describe('a run goes step by step and the result of each step is saved', () => {
  it('runs trigger → a → b and keeps each step’s output, data and duration', async () => {
    const { execution } = await start(chain([{ id: 'a' }, { id: 'b' }]));
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    expect(done.steps.map((step) => [step.nodeId, step.status, step.output])).toEqual([
      ['start', 'succeeded', 'main'],
      ['a', 'succeeded', 'main'],
      ['b', 'succeeded', 'main'],
    ]);
    expect(done.steps[0].data).toEqual({ hello: 'world' });
    expect(done.steps[1].data).toEqual({ attempt: 1, input: { hello: 'world' } });
    expect(done.steps.every((step) => typeof step.durationMs === 'number')).toBe(true);
  });

  it('skips the branch whose output was not taken (`skipped` steps)', async () => {
    const graph = chain([{ id: 'if', type: 'test.branch', script: ['branch_false'] }, { id: 'yes' }, { id: 'no' }], [
      { from: 'start', output: 'main', to: 'if' },
      { from: 'if', output: 'true', to: 'yes' },
      { from: 'if', output: 'false', to: 'no' },
    ]);
    const done = await waitForExecution((await start(graph)).execution.id);
    expect(Object.fromEntries(done.steps.map((step) => [step.nodeId, step.status]))).toEqual({ start: 'succeeded', if: 'succeeded', yes: 'skipped', no: 'succeeded' });
  });

  it('passes a disabled node’s input on and marks the step `disabled`', async () => {
    const done = await waitForExecution((await start(chain([{ id: 'off', script: ['permanent'], disabled: true }, { id: 'after' }]))).execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((step) => step.nodeId === 'off')).toMatchObject({ status: 'succeeded', disabled: true, data: { hello: 'world' } });
  });
});

describe('Run failure handling', () => {
  it('Only temporary failures are retried; the attempts count includes the first attempt', async () => {
    const done = await waitForExecution((await start(chain([{ id: 'flaky', script: ['transient', 'transient', 'ok'], retry: fast }]))).execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'flaky')!;
    expect(step.attempt).toBe(3);
    expect(step.attempts).toMatchObject([
      { attempt: 1, code: 'http_error', kind: 'transient', retried: true },
      { attempt: 2, code: 'http_error', kind: 'transient', retried: true },
    ]);
  });

  it('a permanent failure is not retried and fails the run (node set to `fail`)', async () => {
    const done = await waitForExecution((await start(chain([{ id: 'bad', script: ['permanent', 'ok'], retry: fast }]))).execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'invalid_parameter', nodeId: 'bad', kind: 'permanent', attempts: 1, nodeType: 'test.step' });
    expect(done.steps.find((step) => step.nodeId === 'bad')).toMatchObject({ status: 'failed', attempt: 1 });
  });

  it('An unknown nature counts as temporary', async () => {
    const done = await waitForExecution((await start(chain([{ id: 'odd', script: ['unknown', 'ok'], retry: fast }]))).execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((step) => step.nodeId === 'odd')!.attempts).toMatchObject([{ attempt: 1, kind: 'transient', code: 'internal', retried: true }]);
  });

  it('attempts used up: the run fails with the temporary failure and the number of attempts', async () => {
    const done = await waitForExecution((await start(chain([{ id: 'down', script: ['transient'], retry: { maxAttempts: 2, delayMs: 1_000 } }]))).execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'http_error', kind: 'transient', attempts: 2, nodeId: 'down' });
    expect(done.steps.find((step) => step.nodeId === 'down')!.attempts).toMatchObject([{ retried: true }, { retried: false }]);
  });

  it('A provider rate limit is not a failure: the step is postponed and no attempt is consumed', async () => {
    const done = await waitForExecution((await start(chain([{ id: 'limited', script: ['rate_limit', 'ok'], retry: { maxAttempts: 1, delayMs: 1_000 } }]))).execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'limited')!;
    expect(step.attempt).toBe(1);
    expect(step.attempts).toEqual([]);
  });

  it('`continue`: the next nodes run without this step’s data, and the step counts as succeeded', async () => {
    const done = await waitForExecution((await start(chain([{ id: 'soft', script: ['permanent'], onError: 'continue' }, { id: 'next' }]))).execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((step) => step.nodeId === 'soft')).toMatchObject({ status: 'succeeded', error: { code: 'invalid_parameter' } });
    expect(done.steps.find((step) => step.nodeId === 'next')).toMatchObject({ status: 'succeeded', data: { attempt: 1, input: null } });
  });

  it('`errorPort`: the node’s error output path runs, the normal path does not', async () => {
    const graph = chain([{ id: 'risky', script: ['permanent'], onError: 'errorPort' }, { id: 'recover' }, { id: 'normal' }], [
      { from: 'start', output: 'main', to: 'risky' },
      { from: 'risky', output: 'error', to: 'recover' },
      { from: 'risky', output: 'main', to: 'normal' },
    ]);
    const done = await waitForExecution((await start(graph)).execution.id);
    expect(done.status).toBe('succeeded');
    expect(Object.fromEntries(done.steps.map((step) => [step.nodeId, step.status]))).toMatchObject({ risky: 'succeeded', recover: 'succeeded', normal: 'skipped' });
    expect(done.steps.find((step) => step.nodeId === 'recover')!.data).toMatchObject({ input: { error: { code: 'invalid_parameter' } } });
  });

  it('Attempt timeout: a longer attempt is interrupted for real and fails with `node_timeout`, counted as temporary; a node calling a service fails `step_effect_uncertain`', async () => {
    const [internal, external] = await Promise.all([
      start(chain([{ id: 'stuck', script: ['hang'], timeoutMs: 5_000, retry: { maxAttempts: 1, delayMs: 1_000 } }])),
      start(chain([{ id: 'call', type: 'test.external', script: ['hang', 'ok'], timeoutMs: 5_000, retry: fast }])),
    ]);
    const [timedOut, uncertain] = await Promise.all([waitForExecution(internal.execution.id), waitForExecution(external.execution.id)]);
    expect(timedOut.error).toMatchObject({ code: 'node_timeout', kind: 'transient', attempts: 1 });
    expect(uncertain.error).toMatchObject({ code: 'step_effect_uncertain', kind: 'permanent', attempts: 1 });
    expect(attemptsSeen.get(`${external.execution.id}:call`)).toBe(1);
  }, 20_000);

  it('effects are recorded under a key stable across attempts: one done is recognised, not done again', async () => {
    const { execution } = await start(chain([{ id: 'write', type: 'test.keyed', script: ['transient', 'ok'], effectKey: 'row', retry: fast }]));
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(performedEffects.get(`${execution.id}:row`)).toBe(1);
    // Recognised on the retry, listed once.
    expect(done.steps.find((step) => step.nodeId === 'write')!.effects).toEqual([{ kind: 'test', description: 'test effect row' }]);
  });

  it('In a test run every delay is cut to 2 seconds', async () => {
    const started = Date.now();
    const { execution } = await start(chain([{ id: 'flaky', script: ['transient', 'ok'], retry: { maxAttempts: 2, delayMs: 3_600_000 } }]), { simulated: true });
    const done = await waitForExecution(execution.id, { timeoutMs: 15_000 });
    expect(done.status).toBe('succeeded');
    expect(Date.now() - started).toBeLessThan(15_000);
    const step = done.steps.find((candidate) => candidate.nodeId === 'flaky')!;
    expect(step.attempts).toMatchObject([{ attempt: 1, retried: true }]);
  }, 20_000);

  it('a test run simulates effects and lists them as simulated', async () => {
    const { execution } = await start(chain([{ id: 'write', type: 'test.keyed', effectKey: 'row' }]), { simulated: true });
    const done = await waitForExecution(execution.id);
    expect(performedEffects.get(`${execution.id}:row`)).toBeUndefined();
    expect(done.steps.find((step) => step.nodeId === 'write')!.effects).toEqual([{ kind: 'test', description: 'test effect row', simulated: true }]);
  });
});

describe('failure bookkeeping', () => {
  it('records one incident and the `execution.failed` notification for a failed live run', async () => {
    const { execution, workflow } = await start(chain([{ id: 'bad', script: ['permanent'] }]), { data: { note: 'write to jane@example.com' } });
    await waitForExecution(execution.id);
    const incidents = await db().incident.findMany({ where: { executionId: execution.id } });
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ workflowId: workflow.id, workflowName: 'Test workflow', nodeId: 'bad', nodeName: 'Node bad', acknowledgedAt: null });
    expect(incidents[0].errorSummary.length).toBeLessThanOrEqual(200);
    const notifications = await db().notification.findMany({ where: { memberId: member.id, kind: 'execution.failed' } });
    expect(notifications.find((row) => (row.params as { executionId: string }).executionId === execution.id)).toMatchObject({ severity: 'error', link: `/executions/${execution.id}` });
  });

  it('a failed test run records no incident', async () => {
    const { execution } = await start(chain([{ id: 'bad', script: ['permanent'] }]), { simulated: true });
    expect((await waitForExecution(execution.id)).status).toBe('failed');
    expect(await db().incident.count({ where: { executionId: execution.id } })).toBe(0);
  });
});

describe('waiting and working time', () => {
  it('a waiting run is `waiting`, then resumes; waiting time is not working time', async () => {
    const { execution } = await start(chain([{ id: 'pause', script: ['wait'] }, { id: 'after' }]));
    await waitForExecution(execution.id, { statuses: ['waiting'] });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.workingMs).toBeLessThan(1_000);
    expect(done.steps.map((step) => step.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('working time beyond the maximum run duration fails the run with `execution_timeout`, closing the step in progress', async () => {
    const { execution } = await start(chain([{ id: 'long', script: ['hang'], timeoutMs: 60_000 }]), { timeoutMs: 1_500 });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'execution_timeout', kind: 'permanent', nodeId: 'long' });
    expect(done.steps.find((step) => step.nodeId === 'long')).toMatchObject({ status: 'failed' });
  }, 20_000);
});

describe('slots', () => {
  it('runs of a workflow beyond its concurrency wait in `queued` and are taken in order of arrival', async () => {
    const { workflow, version } = await createWorkflow(member, { graph: chain([{ id: 'work', script: ['slow'] }]) });
    await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 1 } });
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      ids.push((await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { index } } })).id);
    }
    let maxRunning = 0;
    for (;;) {
      const running = await db().execution.count({ where: { workflowId: workflow.id, status: 'running' } });
      maxRunning = Math.max(maxRunning, running);
      if ((await db().execution.count({ where: { workflowId: workflow.id, status: 'succeeded' } })) === 4) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(maxRunning).toBe(1);
    const rows = await db().execution.findMany({ where: { id: { in: ids } }, select: { id: true, startedAt: true } });
    const order = rows.sort((a, b) => a.startedAt!.getTime() - b.startedAt!.getTime()).map((row) => row.id);
    expect(order).toEqual(ids);
  }, 30_000);

  it('a run’s end with no run waiting for a slot takes no exclusive admission lock, so ends do not queue behind one another (issue 25 §1)', async () => {
    const { workflow, version } = await createWorkflow(member, { graph: chain([{ id: 'work', script: ['slow'] }]) });
    const run = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    await waitForExecution(run.id, { statuses: ['running', 'succeeded'] });
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      // Another end checking for waiting runs at the same time (the admission lock in shared mode).
      await other.query('SELECT pg_advisory_lock_shared($1)', [admissionLock]);
      expect((await waitForExecution(run.id)).status).toBe('succeeded');
      await new Promise((resolve) => setTimeout(resolve, 500));
      // An exclusive admission after the end would be waiting for that holder (for its 10 s timeout).
      const { rows } = await other.query(`SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [admissionLock]);
      expect(rows[0].waiting).toBe(0);
    } finally {
      await other.end();
    }
  }, 30_000);

  it('test runs do not occupy a slot', async () => {
    const { workflow, version } = await createWorkflow(member, { graph: chain([{ id: 'work', script: ['wait'] }]) });
    await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 1 } });
    const live = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    const test = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, simulated: true, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    const [first, second] = await Promise.all([waitForExecution(live.id, { statuses: ['waiting', 'succeeded'] }), waitForExecution(test.id, { statuses: ['waiting', 'succeeded'] })]);
    expect([first.status, second.status].every((status) => ['waiting', 'succeeded'].includes(status))).toBe(true);
    await Promise.all([waitForExecution(live.id), waitForExecution(test.id)]);
  }, 20_000);
});
