/**
 * A runner that dies right after a step suspends (a timer wait) must not leave its run stuck: the
 * step's suspension (how it waits, until when) is saved with its `waiting` status in one write, so
 * the advancer that takes the run over resumes it. Seen under `npm start` (scripts/start.int.test.ts):
 * the engine's view of the wait used to be a second write, and a kill between the two left a run
 * `running` with a `waiting` step nobody would ever resume.
 */
import { afterAll, expect, it } from 'vitest';
import { db } from '../../core/db';
import { findNodeType } from '../nodes/registry';
import { claimExecution } from './lease';
import { loadGraph } from './load-graph';
import { runStep } from './run-step';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';
import { leftRunning } from '../../../runner/engine/testing/left-running';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker | undefined;
afterAll(async () => {
  await worker?.stop();
});

it('a runner that dies right after a step starts a timer wait leaves a run the next advancer resumes', async () => {
  const member = await createMember();
  const step = (id: string, script: string) => ({ id, type: 'test.step', version: 1, name: id, params: { script: [script] } });
  const { workflow, version } = await createWorkflow(member, {
    graph: {
      nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} }, step('pause', 'wait'), step('after', 'ok')],
      connections: [
        { from: 'start', output: 'main', to: 'pause' },
        { from: 'pause', output: 'main', to: 'after' },
      ],
    },
  });
  const execution = await leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, lease: null });

  // The dying runner: it takes the lease and runs the step, which suspends; nothing after that is written.
  const claimed = await claimExecution(execution.id, 'dying-runner');
  const runnable = await loadGraph(version!.id, 'start');
  const node = runnable!.nodes.get('pause')!;
  const outcome = await runStep({ execution: claimed!, node, definition: findNodeType(node.type, node.version)!, step: null, input: { main: {} }, nodes: {}, stop: new AbortController().signal, seq: 1, resume: null });
  expect(outcome.kind).toBe('waiting');
  const left = await db().executionStep.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: execution.id, nodeId: 'pause' } } });
  expect(left).toMatchObject({ status: 'waiting', state: { mode: 'waiting', until: expect.any(String) } });
  await db().execution.update({ where: { id: execution.id }, data: { leaseUntil: new Date(Date.now() - 1_000) } });

  // A live runner: the sweeper finds the expired lease, the next advancer resumes the wait.
  worker = await startEngineWorker(databaseUrl);
  const done = await waitForExecution(execution.id, { timeoutMs: 20_000 });
  expect(done.status).toBe('succeeded');
  expect(done.steps.map((row) => [row.nodeId, row.status])).toEqual([
    ['start', 'succeeded'],
    ['pause', 'succeeded'],
    ['after', 'succeeded'],
  ]);
}, 40_000);
