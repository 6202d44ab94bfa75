/**
 * FORBIDDEN_NODE_TYPES when a step runs (issue 18, item 6): a version published before the
 * administrator forbade a type, a replay of it and `retry-failed` fail at that step with
 * `node_type_forbidden` (permanent, `onError` applies); an administrator's runs are exempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import type { GraphInput } from '../contract/graph';
import { replayExecution, retryFailed } from './replay';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import { attemptsSeen } from '../../../runner/engine/testing/fixture-nodes';

const databaseUrl = await useTestDatabase();
const previousForbidden = process.env.FORBIDDEN_NODE_TYPES;
let worker: EngineWorker;
let member: TestMember;
let admin: TestMember;

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const graphWith = (extra: Record<string, unknown> = {}): GraphInput => ({
  nodes: [trigger, { id: 'call', type: 'test.branch', version: 1, name: 'Forbidden later', params: { script: ['branch_true'] }, ...extra }, { id: 'after', type: 'test.step', version: 1, name: 'After', params: {} }],
  connections: [
    { from: 'start', output: 'main', to: 'call' },
    { from: 'call', output: 'true', to: 'after' },
    { from: 'call', output: 'error', to: 'after' },
  ],
});

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  member = await createMember();
  admin = await createMember({ role: 'admin' });
});
afterAll(async () => {
  await worker?.stop();
  if (previousForbidden === undefined) delete process.env.FORBIDDEN_NODE_TYPES;
  else process.env.FORBIDDEN_NODE_TYPES = previousForbidden;
  resetConfigForTests();
});

function forbid(types: string): void {
  process.env.FORBIDDEN_NODE_TYPES = types;
  resetConfigForTests();
}

async function runOf(owner: TestMember, graph: GraphInput) {
  const { workflow, version } = await createWorkflow(owner, { graph });
  const execution = await startExecution({ memberId: owner.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
  return { workflow, execution };
}

describe('a node type forbidden after the workflow was published', () => {
  it('fails the run at that step with `node_type_forbidden`, before the node runs', async () => {
    forbid('test.branch');
    const { execution } = await runOf(member, graphWith());
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'node_type_forbidden', kind: 'permanent', nodeId: 'call', nodeType: 'test.branch', attempts: 1, details: { nodeType: 'test.branch' } });
    expect(attemptsSeen.get(`${execution.id}:call`)).toBeUndefined();
    expect(done.steps.map((step) => [step.nodeId, step.status])).toEqual([
      ['start', 'succeeded'],
      ['call', 'failed'],
    ]);
  });

  it('replays of the original version and retry-failed go through the same check', async () => {
    forbid('');
    const { workflow, execution } = await runOf(member, graphWith({ params: { script: ['permanent'] } }));
    const second = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: workflow.publishedVersionId!, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    for (const id of [execution.id, second.id]) expect((await waitForExecution(id)).error).toMatchObject({ code: 'invalid_parameter' });
    forbid('test.branch');
    const replay = await replayExecution(member.id, execution.id, { from: 'start', version: 'original' });
    expect((await waitForExecution(replay.executionId)).error).toMatchObject({ code: 'node_type_forbidden', nodeId: 'call' });
    const bulk = await retryFailed(member.id, workflow.id, { limit: 10, since: new Date(0), from: 'start' });
    expect(bulk.replayed.map((row) => row.executionId)).toContain(second.id);
    for (const row of bulk.replayed) expect((await waitForExecution(row.replayId)).error).toMatchObject({ code: 'node_type_forbidden', nodeId: 'call' });
    expect(attemptsSeen.get(`${replay.executionId}:call`)).toBeUndefined();
  });

  it('the node’s `onError` still applies (error port)', async () => {
    forbid('test.branch');
    const { execution } = await runOf(member, graphWith({ onError: 'errorPort' }));
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'call')!;
    expect(step).toMatchObject({ status: 'succeeded', output: 'error', error: { code: 'node_type_forbidden' } });
    expect(done.steps.find((candidate) => candidate.nodeId === 'after')!.status).toBe('succeeded');
  });

  it('an administrator’s runs are exempt', async () => {
    forbid('test.branch');
    const { execution } = await runOf(admin, graphWith());
    expect((await waitForExecution(execution.id)).status).toBe('succeeded');
  });
});
