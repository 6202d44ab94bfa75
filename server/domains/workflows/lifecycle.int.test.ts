/**
 * A workflow's life through the routes: publish (immutable numbered versions with their trigger
 * facts), unpublish, pause, resume, archive (read-only), versions; none of them cancels a run.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { findNodeType } from '../../engine/nodes/registry';
import { startExecution } from '../../engine/run/start';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow, webhookGraph } from '../../testing/workflow-factories';

await useTestDatabase();

let owner: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
});

async function draft(graph: unknown = webhookGraph()) {
  const response = await call('POST', '/api/v1/workflows', { cookie: owner.cookie, body: { name: 'Life', graph } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.workflow.id as string;
}

const post = (id: string, action: string, body: unknown = {}) => call('POST', `/api/v1/workflows/${id}/${action}`, { cookie: owner.cookie, body });
const read = async (id: string) => (await call('GET', `/api/v1/workflows/${id}`, { cookie: owner.cookie })).body.workflow;

describe('POST /api/v1/workflows/{id}/publish', () => {
  it('freezes the draft as version 1, then 2, with its trigger facts; the workflow is published; audited', async () => {
    const id = await draft();
    const first = await post(id, 'publish', { note: 'First' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.version).toEqual({
      id: expect.any(String),
      number: 1,
      note: 'First',
      createdAt: expect.any(String),
      createdBy: owner.id,
      triggerType: 'webhook',
      published: true,
    });
    const stored = await db().workflowVersion.findUniqueOrThrow({ where: { id: first.body.version.id } });
    expect(stored).toMatchObject({ triggerType: 'webhook', triggerNodeId: 'start', triggerMailboxIds: [], usedMailboxIds: [] });
    expect(stored.graph).toMatchObject({ id: stored.id, workflowId: id, nodes: [{ id: 'start' }] });
    expect(await read(id)).toMatchObject({ status: 'published', publishedVersion: { id: stored.id, number: 1 }, triggerType: 'webhook' });

    // The draft changes; version 1 does not.
    await call('PUT', `/api/v1/workflows/${id}/graph`, { cookie: owner.cookie, body: { graph: webhookGraph({ notes: [{ id: 'n' }] }) } });
    const second = await post(id, 'publish');
    expect(second.body.version).toMatchObject({ number: 2, note: '', published: true });
    expect((await db().workflowVersion.findUniqueOrThrow({ where: { id: stored.id } })).graph).toEqual(stored.graph);
    expect(await db().auditEntry.count({ where: { action: 'workflow.published', targetId: id } })).toBe(2);

    const versions = await call('GET', `/api/v1/workflows/${id}/versions`, { cookie: owner.cookie });
    expect(versions.status).toBe(200);
    expect(versions.body.versions.map((version: { number: number; published: boolean }) => [version.number, version.published])).toEqual([
      [2, true],
      [1, false],
    ]);
    const one = await call('GET', `/api/v1/workflows/${id}/versions/${stored.id}`, { cookie: owner.cookie });
    expect(one.status).toBe(200);
    expect(one.body.version).toMatchObject({ id: stored.id, number: 1, published: false, graph: { id: stored.id, workflowId: id, nodes: [{ id: 'start' }] } });
  });

  it('refuses a draft without a trigger (409 workflow.no_trigger) and an invalid draft (400 workflow.invalid_graph)', async () => {
    const empty = await draft({ nodes: [] });
    const refused = await post(empty, 'publish');
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('workflow.no_trigger');
    // A draft stored before a node type went away: no longer valid.
    const { workflow } = await createWorkflow(owner, { publish: false, graph: { nodes: [{ id: 'x', type: 'gone.type', version: 1, name: 'x', params: {} }], connections: [] } });
    const invalid = await post(workflow.id, 'publish');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'workflow.invalid_graph', details: { issues: [{ path: 'nodes[0].type' }] } });
    expect(await db().workflowVersion.count({ where: { workflowId: { in: [empty, workflow.id] } } })).toBe(0);
  });

  it('refuses a note over 500 characters', async () => {
    const response = await post(await draft(), 'publish', { note: 'x'.repeat(501) });
    expect(response.status).toBe(400);
  });
});

describe('schedule triggers', () => {
  it.skipIf(!findNodeType('trigger.schedule', 1))(
    'publishing schedules the next run; unpublishing removes the schedule (needs the trigger.schedule node type)',
    async () => {
      const id = await draft({ nodes: [{ id: 'tick', type: 'trigger.schedule', version: 1, name: 'Tick', params: { cron: '*/5 * * * *', timeZone: 'Europe/Paris' } }] });
      const published = await post(id, 'publish');
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      const schedule = await db().workflowSchedule.findUniqueOrThrow({ where: { workflowId: id } });
      expect(schedule).toMatchObject({ versionId: published.body.version.id, cron: '*/5 * * * *', timeZone: 'Europe/Paris' });
      expect(schedule.nextRunAt.getTime()).toBeGreaterThan(Date.now());
      await post(id, 'unpublish');
      expect(await db().workflowSchedule.findUnique({ where: { workflowId: id } })).toBeNull();
    },
  );
});

describe('versions', () => {
  it('answers 404 workflow.version_not_found for an unknown version, another workflow’s, or a test snapshot', async () => {
    const id = await draft();
    const { version: foreign } = await createWorkflow(owner);
    const snapshot = await db().workflowVersion.create({ data: { workflowId: id, number: null, graph: {} } });
    for (const versionId of [randomUUID(), foreign!.id, snapshot.id, 'nope']) {
      const response = await call('GET', `/api/v1/workflows/${id}/versions/${versionId}`, { cookie: owner.cookie });
      expect(response.status, versionId).toBe(404);
      expect(response.body.error.code).toBe('workflow.version_not_found');
    }
    expect((await call('GET', `/api/v1/workflows/${id}/versions`, { cookie: owner.cookie })).body.versions).toEqual([]);
  });
});

describe('unpublish, pause, resume, archive', () => {
  it('moves through the statuses, each answering the record; repeats answer 200', async () => {
    const id = await draft();
    await post(id, 'publish');
    for (const [action, status] of [
      ['pause', 'paused'],
      ['pause', 'paused'],
      ['resume', 'published'],
      ['resume', 'published'],
      ['unpublish', 'draft'],
      ['unpublish', 'draft'],
    ] as const) {
      const response = await post(id, action);
      expect(response.status, action).toBe(200);
      expect(response.body.workflow).toMatchObject({ id, status });
    }
    expect((await read(id)).publishedVersion).toBeNull();
    expect(await db().auditEntry.count({ where: { action: { in: ['workflow.paused', 'workflow.resumed', 'workflow.unpublished'] }, targetId: id } })).toBe(3);
  });

  it('refuses to pause a workflow with no published version (409 workflow.not_published)', async () => {
    const response = await post(await draft(), 'pause');
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('workflow.not_published');
  });

  it('archive unpublishes and makes the workflow read-only (graph, settings, publish, pause: 409 workflow.archived)', async () => {
    const id = await draft();
    await post(id, 'publish');
    const archived = await post(id, 'archive');
    expect(archived.status).toBe(200);
    expect(archived.body.workflow).toMatchObject({ status: 'archived', publishedVersion: null });
    expect((await post(id, 'archive')).status).toBe(200);
    const refusals = [
      await call('PUT', `/api/v1/workflows/${id}/graph`, { cookie: owner.cookie, body: { graph: webhookGraph() } }),
      await call('PATCH', `/api/v1/workflows/${id}`, { cookie: owner.cookie, body: { name: 'x' } }),
      await post(id, 'publish'),
      await post(id, 'pause'),
      await post(id, 'resume'),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('workflow.archived');
    }
    expect((await call('GET', `/api/v1/workflows/${id}/versions`, { cookie: owner.cookie })).body.versions).toHaveLength(1);
  });

  it('cancels no run in progress', async () => {
    const { workflow, version } = await createWorkflow(owner);
    const run = await startExecution({ memberId: owner.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    for (const action of ['pause', 'unpublish', 'archive']) expect((await post(workflow.id, action)).status).toBe(200);
    expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('queued');
  });
});
