/**
 * The end of a run whose last steps were held by its advance (effect-free steps since its last write,
 * step-journal.ts) writes those steps and the final status in one statement (finish.ts): the steps are saved with
 * the run, and the browsers are told of each step before the run's end.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeNotification } from '../../core/realtime/emit';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { createWorkflow } from '../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../runner/engine/testing/engine-worker';
import '../../../runner/engine/testing/fixture-nodes';

const databaseUrl = await useEngineWorker({ concurrency: 4 });
let member: TestMember;
const listener = new pg.Client({ connectionString: databaseUrl });
/** [event, executionId, status] of every live event, in the order PostgreSQL delivered them. */
const heard: [string, string, string][] = [];

beforeAll(async () => {
  member = await createMember();
  await listener.connect();
  listener.on('notification', (message) => {
    const packet = (JSON.parse(message.payload ?? '{}') as { data?: { packet?: { data?: [string, { executionId?: string; status?: string }] } } }).data?.packet?.data;
    if (packet) heard.push([packet[0], packet[1]?.executionId ?? '', packet[1]?.status ?? '']);
  });
  await listener.query(`LISTEN "${realtimeNotification(member.id, 'execution.status', { executionId: '', workflowId: '', status: 'running' }).channel}"`);
});
afterAll(async () => {
  await listener.end();
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const node = (id: string, type: string, params: Record<string, unknown> = {}) => ({ id, type, version: 1, name: `Node ${id}`, params });
const link = (from: string, to: string) => ({ from, output: 'main', to });

describe('a run’s end writes the steps its advance held, with the run', () => {
  it('every held step is saved, and the browsers hear each step before the run’s end', async () => {
    const graph = { nodes: [trigger, node('one', 'test.step'), node('two', 'test.step'), node('three', 'test.step')], connections: [link('start', 'one'), link('one', 'two'), link('two', 'three')] };
    const { workflow, version } = await createWorkflow(member, { graph });
    const { id } = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    const done = await waitForExecution(id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.map((step) => [step.nodeId, step.status])).toEqual([
      ['start', 'succeeded'],
      ['one', 'succeeded'],
      ['two', 'succeeded'],
      ['three', 'succeeded'],
    ]);
    // Notifications are delivered after their transaction commits: wait for the run's end to arrive.
    const deadline = Date.now() + 5_000;
    while (!heard.some(([event, execution, status]) => event === 'execution.status' && execution === id && status === 'succeeded') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ofRun = heard.filter(([, execution]) => execution === id);
    const end = ofRun.findIndex(([event, , status]) => event === 'execution.status' && status === 'succeeded');
    expect(end).toBeGreaterThan(0);
    const stepEvents = ofRun.filter(([event]) => event === 'execution.step');
    expect(stepEvents.length).toBeGreaterThan(0);
    expect(ofRun.slice(end + 1).filter(([event]) => event === 'execution.step')).toEqual([]);
  });
});
