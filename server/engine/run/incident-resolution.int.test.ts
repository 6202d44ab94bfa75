/**
 * Issue 19 §3: "An incident whose run was then replayed successfully is resolved (or says it was
 * replayed), instead of staying open." With the real runner: a live run fails (one incident), the
 * member fixes the workflow and replays it; when the replay succeeds the incident carries
 * `resolvedAt` and `resolvedByExecutionId` (the replay), and counts as acknowledged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
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
const graphWith = (script: string[]): GraphInput => ({
  nodes: [trigger, { id: 'step', type: 'test.step', version: 1, name: 'Node step', params: { script } }],
  connections: [{ from: 'start', output: 'main', to: 'step' }],
});

/** Publishes a new version of the workflow with `graph`: the member "fixed the cause". */
async function publish(workflowId: string, graph: GraphInput, number: number) {
  const version = await db().workflowVersion.create({
    data: { workflowId, number, graph: { ...graph, id: workflowId, workflowId } as object, triggerType: 'webhook', triggerNodeId: 'start', createdBy: member.id },
  });
  await db().workflow.update({ where: { id: workflowId }, data: { publishedVersionId: version.id } });
}

/** A live run of a workflow whose step always fails: failed, with its incident open. */
async function failedLiveRun() {
  const { workflow, version } = await createWorkflow(member, { graph: graphWith(['permanent']), name: 'Flaky' });
  const started = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
  expect((await waitForExecution(started.id)).status).toBe('failed');
  const incident = await db().incident.findUniqueOrThrow({ where: { executionId: started.id } });
  expect(incident).toMatchObject({ resolvedAt: null, resolvedByExecutionId: null, acknowledgedAt: null });
  return { workflow, execution: started, incident };
}

async function replayed(executionId: string) {
  const { executionId: replayId } = await replayExecution(member.id, executionId, { from: 'start', version: 'published' });
  return waitForExecution(replayId);
}

describe('issue 19 §3: an incident whose run was replayed successfully is resolved', () => {
  it('a successful replay resolves the incident of the run it replays, naming the replay, and it leaves the unacknowledged list', async () => {
    const { workflow, execution, incident } = await failedLiveRun();
    await publish(workflow.id, graphWith(['ok']), 2);
    const replay = await replayed(execution.id);
    expect(replay.status).toBe('succeeded');

    const stored = await db().incident.findUniqueOrThrow({ where: { id: incident.id } });
    expect(stored.resolvedByExecutionId).toBe(replay.id);
    expect(stored.resolvedAt).toBeInstanceOf(Date);
    expect(stored.acknowledgedAt).toEqual(stored.resolvedAt);

    const listed = await call('GET', '/api/v1/executions/incidents', { cookie: member.cookie });
    expect(listed.status).toBe(200);
    expect(listed.body.items.find((item: { id: string }) => item.id === incident.id)).toMatchObject({
      resolvedByExecutionId: replay.id,
      resolvedAt: stored.resolvedAt!.toISOString(),
      acknowledgedAt: stored.resolvedAt!.toISOString(),
    });
    const open = await call('GET', '/api/v1/executions/incidents?unacknowledged=true', { cookie: member.cookie });
    expect(open.body.items.map((item: { id: string }) => item.id)).not.toContain(incident.id);
  });

  it('a failed replay leaves the incident open; a successful replay of that replay resolves both incidents', async () => {
    const { workflow, execution, incident } = await failedLiveRun();
    const firstReplay = await replayed(execution.id);
    expect(firstReplay.status).toBe('failed');
    expect(await db().incident.findUniqueOrThrow({ where: { id: incident.id } })).toMatchObject({ resolvedAt: null, acknowledgedAt: null });
    const replayIncident = await db().incident.findUniqueOrThrow({ where: { executionId: firstReplay.id } });

    await publish(workflow.id, graphWith(['ok']), 2);
    const secondReplay = await replayed(firstReplay.id);
    expect(secondReplay.status).toBe('succeeded');
    const resolved = await db().incident.findMany({ where: { id: { in: [incident.id, replayIncident.id] } } });
    expect(resolved.map((row) => row.resolvedByExecutionId)).toEqual([secondReplay.id, secondReplay.id]);
  });

  it('an incident acknowledged before the replay keeps its first acknowledgement instant', async () => {
    const { workflow, execution, incident } = await failedLiveRun();
    const acknowledged = await call('POST', `/api/v1/executions/incidents/${incident.id}/acknowledge`, { cookie: member.cookie, body: {} });
    expect(acknowledged.status).toBe(200);
    await publish(workflow.id, graphWith(['ok']), 2);
    const replay = await replayed(execution.id);
    const stored = await db().incident.findUniqueOrThrow({ where: { id: incident.id } });
    expect(stored.resolvedByExecutionId).toBe(replay.id);
    expect(stored.acknowledgedAt!.toISOString()).toBe(acknowledged.body.acknowledgedAt);
  });

  it('a run that succeeds without being a replay resolves no incident of its workflow', async () => {
    const { workflow, incident } = await failedLiveRun();
    await publish(workflow.id, graphWith(['ok']), 2);
    const published = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    const fresh = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: published.publishedVersionId!, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    expect((await waitForExecution(fresh.id)).status).toBe('succeeded');
    expect(await db().incident.findUniqueOrThrow({ where: { id: incident.id } })).toMatchObject({ resolvedAt: null, acknowledgedAt: null });
  });
});
