/**
 * A runner that dies between saving a step as failed and failing its run must not leave a run the
 * next advancer finishes as `succeeded`. Seen in the crash-loop test (runner/engine/crash-loop.int.test.ts):
 * the parameter poison's step was settled `step_effect_uncertain` by a runner that then died with the
 * other poison run; the next advancer saw nothing left to run and the run ended `succeeded`, error null.
 */
import { afterAll, expect, it } from 'vitest';
import { db } from '../../core/db';
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

it('a step saved as failed whose run was not failed with it fails the run with the step’s error on the next advance', async () => {
  const member = await createMember();
  const step = (id: string) => ({ id, type: 'test.step', version: 1, name: `Node ${id}`, params: { script: ['ok'] } });
  const { workflow, version } = await createWorkflow(member, {
    graph: {
      nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} }, step('call'), step('after')],
      connections: [
        { from: 'start', output: 'main', to: 'call' },
        { from: 'call', output: 'main', to: 'after' },
      ],
    },
  });
  const execution = await leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id });
  // What the dying runner had written: the step failed for good (no onError caught it), nothing more.
  const stored = { code: 'step_effect_uncertain', message: 'The step was cut off while calling a service (the runner stopped); it may or may not have taken effect.', nodeId: 'call', kind: 'permanent', attempts: 1, nodeType: 'test.step', details: {}, at: new Date().toISOString() };
  await db().executionStep.create({
    data: { executionId: execution.id, nodeId: 'call', nodeType: 'test.step', status: 'failed', attempt: 1, seq: 1, error: stored, finishedAt: new Date(), attempts: [{ ...stored, retried: false, interrupted: true }] },
  });

  worker = await startEngineWorker(databaseUrl);
  const done = await waitForExecution(execution.id, { timeoutMs: 20_000 });
  expect(done.status).toBe('failed');
  expect(done.error).toMatchObject({ code: 'step_effect_uncertain', nodeId: 'call', kind: 'permanent', nodeType: 'test.step' });
  // Nothing after the failed step ran.
  expect(done.steps.map((row) => [row.nodeId, row.status])).toEqual([
    ['start', 'succeeded'],
    ['call', 'failed'],
  ]);
  // The run's failure opened its incident as a failure found at once would.
  expect(await db().incident.count({ where: { executionId: execution.id } })).toBe(1);
}, 40_000);
