/**
 * Rolling back to a version (POST /api/v1/workflows/{id}/versions/{versionId}/restore): the version's
 * graph becomes the draft with a new revision; the published version stays; the revision check, the
 * graph checks (node types the instance now forbids to members) and scoping are those of a graph save.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import type { GraphInput } from '../../engine/contract/graph';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow as createWorkflowRow, webhookGraph } from '../../testing/workflow-factories';

// Members may not use the HTTP request node on this instance; administrators may.
const previousForbidden = process.env.FORBIDDEN_NODE_TYPES;
process.env.FORBIDDEN_NODE_TYPES = 'http.request';
resetConfigForTests();

await useTestDatabase();

afterAll(() => {
  if (previousForbidden === undefined) delete process.env.FORBIDDEN_NODE_TYPES;
  else process.env.FORBIDDEN_NODE_TYPES = previousForbidden;
  resetConfigForTests();
});

let owner: TestMember;
let other: TestMember;
let admin: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  other = await createMember({ name: 'Other' });
  admin = await createMember({ name: 'Admin', role: 'admin' });
});

const setNode = (name: string, value: unknown) => ({
  id: 'tidy',
  type: 'data.set',
  version: 1,
  name,
  params: { fields: [{ name: 'ok', value }] },
  position: { x: 260, y: 0 },
});

const graphA = (): GraphInput =>
  webhookGraph({
    nodes: [...webhookGraph().nodes!, setNode('First tidy', true)],
    connections: [{ from: 'start', output: 'main', to: 'tidy' }],
    notes: [{ id: 'note-a', text: 'Version one', color: 'menthe' }],
  });
const graphB = (): GraphInput => webhookGraph({ nodes: [...webhookGraph().nodes!, setNode('Second tidy', false)], connections: [] });

const httpGraph = (): GraphInput => ({
  nodes: [
    { id: 'start', type: 'trigger.mail', version: 1, name: 'Mail', params: {}, position: { x: 0, y: 0 } },
    { id: 'call', type: 'http.request', version: 1, name: 'Call', params: { url: 'https://example.test/hook' }, position: { x: 240, y: 0 } },
  ],
  connections: [{ from: 'start', output: 'main', to: 'call' }],
});

const as = (member: TestMember) => ({ cookie: member.cookie });
const restorePath = (id: string, versionId: string) => `/api/v1/workflows/${id}/versions/${versionId}/restore`;
const readWorkflow = async (member: TestMember, id: string) => (await call('GET', `/api/v1/workflows/${id}`, as(member))).body.workflow;

/** A workflow of `member` with version 1 (graph A) and version 2 (graph B, published), and graph B's draft. */
async function twoVersions(member: TestMember = owner) {
  const created = await call('POST', '/api/v1/workflows', { ...as(member), body: { name: 'Rollback', graph: graphA() } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.workflow.id as string;
  const v1 = await call('POST', `/api/v1/workflows/${id}/publish`, { ...as(member), body: { note: 'one' } });
  expect(v1.status, JSON.stringify(v1.body)).toBe(200);
  expect((await call('PUT', `/api/v1/workflows/${id}/graph`, { ...as(member), body: { graph: graphB() } })).status).toBe(200);
  const v2 = await call('POST', `/api/v1/workflows/${id}/publish`, { ...as(member), body: { note: 'two' } });
  expect(v2.status).toBe(200);
  return { id, v1: v1.body.version.id as string, v2: v2.body.version.id as string };
}

describe('POST /api/v1/workflows/{id}/versions/{versionId}/restore', () => {
  it('makes the version’s graph the draft with a new revision; the published version and the version stay', async () => {
    const { id, v1, v2 } = await twoVersions();
    const before = await readWorkflow(owner, id);
    const storedV1 = await db().workflowVersion.findUniqueOrThrow({ where: { id: v1 } });

    const restored = await call('POST', restorePath(id, v1), { ...as(owner), body: {} });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body).toEqual({
      graph: expect.objectContaining({ id, workflowId: id }),
      draftRevision: before.draftRevision + 1,
      restoredFrom: { id: v1, number: 1 },
    });
    expect(restored.body.graph.nodes.map((node: { id: string; name: string }) => [node.id, node.name])).toEqual([
      ['start', 'Webhook'],
      ['tidy', 'First tidy'],
    ]);
    expect(restored.body.graph.connections).toEqual([{ from: 'start', output: 'main', to: 'tidy' }]);
    expect(restored.body.graph.notes).toEqual([expect.objectContaining({ id: 'note-a', text: 'Version one', color: 'menthe' })]);

    const after = await readWorkflow(owner, id);
    expect(after.graph).toEqual(restored.body.graph);
    expect(after.draftRevision).toBe(before.draftRevision + 1);
    expect(after.status).toBe('published');
    expect(after.publishedVersion).toMatchObject({ id: v2, number: 2 });
    // Nothing new published, version 1 as it was.
    expect(await db().workflowVersion.count({ where: { workflowId: id } })).toBe(2);
    expect((await db().workflowVersion.findUniqueOrThrow({ where: { id: v1 } })).graph).toEqual(storedV1.graph);

    // The published version can be restored too (back to graph B), accepted upper-case.
    const back = await call('POST', restorePath(id, v2.toUpperCase()), { ...as(owner), body: { draftRevision: after.draftRevision } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.restoredFrom).toEqual({ id: v2, number: 2 });
    expect(back.body.graph.nodes.map((node: { name: string }) => node.name)).toEqual(['Webhook', 'Second tidy']);
  });

  it('409 workflow.revision_conflict with the current revision when draftRevision is stale; the draft is untouched', async () => {
    const { id, v1 } = await twoVersions();
    const before = await readWorkflow(owner, id);
    const stale = await call('POST', restorePath(id, v1), { ...as(owner), body: { draftRevision: before.draftRevision - 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'workflow.revision_conflict', details: { draftRevision: before.draftRevision } });
    expect(await readWorkflow(owner, id)).toEqual(before);
    const current = await call('POST', restorePath(id, v1), { ...as(owner), body: { draftRevision: before.draftRevision } });
    expect(current.status).toBe(200);
  });

  it('404 workflow.version_not_found for an unknown, malformed, test-run or other workflow’s version', async () => {
    const { id } = await twoVersions();
    const elsewhere = await twoVersions();
    const testRun = await db().workflowVersion.create({ data: { workflowId: id, number: null, graph: { ...webhookGraph(), id, workflowId: id } as object, createdBy: owner.id } });
    const before = await readWorkflow(owner, id);
    for (const versionId of [randomUUID(), 'not-a-uuid', testRun.id, elsewhere.v1]) {
      const answer = await call('POST', restorePath(id, versionId), { ...as(owner), body: {} });
      expect(answer.status, versionId).toBe(404);
      expect(answer.body.error.code, versionId).toBe('workflow.version_not_found');
    }
    expect(await readWorkflow(owner, id)).toEqual(before);
  });

  it('404 workflow.not_found for another member’s workflow, whose draft stays', async () => {
    const { id, v1 } = await twoVersions();
    const before = await readWorkflow(owner, id);
    for (const workflowId of [id, randomUUID(), 'nope']) {
      const answer = await call('POST', restorePath(workflowId, v1), { ...as(other), body: {} });
      expect(answer.status, workflowId).toBe(404);
      expect(answer.body.error.code, workflowId).toBe('workflow.not_found');
    }
    expect(await readWorkflow(owner, id)).toEqual(before);
  });

  it('refuses a version using a node type now forbidden to members (400 workflow.invalid_graph at the node); administrators are exempt', async () => {
    // Published before the instance forbade the type: the factory writes the rows as they were.
    const { workflow, version } = await createWorkflowRow(owner, { graph: httpGraph() });
    expect((await call('PUT', `/api/v1/workflows/${workflow.id}/graph`, { ...as(owner), body: { graph: webhookGraph() } })).status).toBe(200);
    const before = await readWorkflow(owner, workflow.id);
    const refused = await call('POST', restorePath(workflow.id, version!.id), { ...as(owner), body: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('workflow.invalid_graph');
    expect(refused.body.error.details.issues).toContainEqual({ path: 'nodes[1].type', message: expect.stringContaining('not allowed on this instance') });
    expect(await readWorkflow(owner, workflow.id)).toEqual(before);

    const own = await createWorkflowRow(admin, { graph: httpGraph() });
    const allowed = await call('POST', restorePath(own.workflow.id, own.version!.id), { ...as(admin), body: {} });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.graph.nodes.map((node: { type: string }) => node.type)).toEqual(['trigger.mail', 'http.request']);
  });

  it('refuses a version whose node type no longer exists (400 workflow.invalid_graph)', async () => {
    const { workflow, version } = await createWorkflowRow(owner, {
      graph: { nodes: [{ id: 'x', type: 'gone.type', version: 1, name: 'Gone', params: {} }], connections: [] },
      publish: true,
    });
    const refused = await call('POST', restorePath(workflow.id, version!.id), { ...as(owner), body: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'workflow.invalid_graph', details: { issues: [{ path: 'nodes[0].type' }] } });
  });

  it('409 workflow.archived on an archived workflow', async () => {
    const { id, v1 } = await twoVersions();
    expect((await call('POST', `/api/v1/workflows/${id}/archive`, { ...as(owner), body: {} })).status).toBe(200);
    const answer = await call('POST', restorePath(id, v1), { ...as(owner), body: {} });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('workflow.archived');
  });

  it('replays an Idempotency-Key: one new revision, the same answer', async () => {
    const { id, v1 } = await twoVersions();
    const before = await readWorkflow(owner, id);
    const { secret } = await createApiKeyFor(owner, ['workflows:write']);
    const headers = { 'idempotency-key': `restore-${id}` };
    const first = await call('POST', restorePath(id, v1), { key: secret, headers, body: {} });
    const second = await call('POST', restorePath(id, v1), { key: secret, headers, body: {} });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await readWorkflow(owner, id)).draftRevision).toBe(before.draftRevision + 1);
  });

  it('needs workflows:write', async () => {
    const { id, v1 } = await twoVersions();
    const { secret } = await createApiKeyFor(owner, ['workflows:read']);
    const answer = await call('POST', restorePath(id, v1), { key: secret, body: {} });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('api_key.scope_missing');
  });
});
