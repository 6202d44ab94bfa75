/**
 * Spec, Limits: "all workflows together are capped at 100 by the instance. Excess runs wait in
 * `queued`." Shown with the cap set to 2 for this file's process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { startExecution } from './start';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';

process.env.INSTANCE_MAX_CONCURRENCY = '2';
resetConfigForTests();
const databaseUrl = await useTestDatabase();
let worker: EngineWorker;

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl, { concurrency: 8 });
});
afterAll(async () => {
  await worker?.stop();
  delete process.env.INSTANCE_MAX_CONCURRENCY;
  resetConfigForTests();
});

it('live runs of all workflows together never exceed the instance cap; the excess waits queued and all end', async () => {
  const member = await createMember();
  const graph = {
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
      { id: 'work', type: 'test.step', version: 1, name: 'Work', params: { script: ['slow'] } },
    ],
    connections: [{ from: 'start', output: 'main', to: 'work' }],
  };
  const ids: string[] = [];
  for (const name of ['A', 'B', 'C']) {
    const { workflow, version } = await createWorkflow(member, { name, graph });
    for (let index = 0; index < 3; index += 1) {
      ids.push((await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } })).id);
    }
  }
  let maxRunning = 0;
  let sawQueuedWhileFull = false;
  for (;;) {
    const running = await db().execution.count({ where: { id: { in: ids }, status: 'running' } });
    const queued = await db().execution.count({ where: { id: { in: ids }, status: 'queued' } });
    maxRunning = Math.max(maxRunning, running);
    if (running === 2 && queued > 0) sawQueuedWhileFull = true;
    if ((await db().execution.count({ where: { id: { in: ids }, status: 'succeeded' } })) === ids.length) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(maxRunning).toBeLessThanOrEqual(2);
  expect(sawQueuedWhileFull).toBe(true);
  for (const id of ids) expect((await waitForExecution(id)).status).toBe('succeeded');
}, 60_000);
