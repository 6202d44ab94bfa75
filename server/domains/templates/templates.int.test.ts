import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import type { GraphInput } from '../../engine/contract/graph';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow as createWorkflowRow } from '../../testing/workflow-factories';

// Members may not use the HTTP request node on this instance; administrators may.
const previousForbidden = process.env.FORBIDDEN_NODE_TYPES;
process.env.FORBIDDEN_NODE_TYPES = 'http.request, flow.nonexistent';
resetConfigForTests();

await useTestDatabase();

afterAll(() => {
  if (previousForbidden === undefined) delete process.env.FORBIDDEN_NODE_TYPES;
  else process.env.FORBIDDEN_NODE_TYPES = previousForbidden;
  resetConfigForTests();
});

const unknownId = '00000000-0000-4000-8000-000000000000';

const webhookGraph = (): GraphInput => ({
  nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } }],
  connections: [],
});

const httpGraph = (): GraphInput => ({
  nodes: [
    { id: 'start', type: 'trigger.mail', version: 1, name: 'Mail', params: {}, position: { x: 0, y: 0 } },
    { id: 'call', type: 'http.request', version: 1, name: 'Call', params: { url: 'https://example.test/hook' }, position: { x: 240, y: 0 } },
  ],
  connections: [{ from: 'start', output: 'main', to: 'call' }],
});

let member: TestMember;
let admin: TestMember;

beforeAll(async () => {
  member = await createMember();
  admin = await createMember({ role: 'admin' });
});

async function adminCreate(body: Record<string, unknown>) {
  const response = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body: { description: '', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.template as { id: string; name: string; enabled: boolean; installCount: number; nodeTypes: string[]; requiresProviders: string[] };
}

/** A starter template as the instance ships them (a slug), written directly as the starter sync would. */
async function insertStarter(slug: string) {
  return db().template.create({ data: { slug, name: `Starter ${slug}`, description: 'Shipped', category: 'triage', graph: webhookGraph() as object, nodeTypes: ['trigger.webhook@1'] } });
}

describe('GET /api/v1/templates', () => {
  it('members see the enabled templates by name; administrators also the disabled ones', async () => {
    const zulu = await adminCreate({ name: 'Zulu list', graph: webhookGraph() });
    const alpha = await adminCreate({ name: 'Alpha list', graph: webhookGraph(), category: 'digests' });
    const hidden = await adminCreate({ name: 'Hidden list', graph: webhookGraph(), enabled: false });

    const mine = await call('GET', '/api/v1/templates', { cookie: member.cookie });
    expect(mine.status).toBe(200);
    const names = (mine.body.templates as { name: string }[]).map((template) => template.name);
    expect(names).toContain('Alpha list');
    expect(names).not.toContain('Hidden list');
    expect(names.indexOf('Alpha list')).toBeLessThan(names.indexOf('Zulu list'));
    const shown = (mine.body.templates as { id: string }[]).find((template) => template.id === alpha.id);
    expect(shown).toEqual({
      id: alpha.id,
      name: 'Alpha list',
      description: '',
      category: 'digests',
      enabled: true,
      nodeTypes: ['trigger.webhook@1'],
      requiresProviders: [],
      createdBy: admin.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      installCount: 0,
      tables: [],
    });

    const all = await call('GET', '/api/v1/templates', { cookie: admin.cookie });
    const adminIds = (all.body.templates as { id: string; enabled: boolean }[]).map((template) => template.id);
    expect(adminIds).toEqual(expect.arrayContaining([zulu.id, alpha.id, hidden.id]));
    expect((all.body.templates as { id: string; enabled: boolean }[]).find((template) => template.id === hidden.id)?.enabled).toBe(false);
  });

  it('needs templates:read for a key and a caller', async () => {
    expect((await call('GET', '/api/v1/templates')).status).toBe(401);
    const { secret: without } = await createApiKeyFor(member, ['workflows:write']);
    const refused = await call('GET', '/api/v1/templates', { key: without });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('api_key.scope_missing');
    const { secret: reader } = await createApiKeyFor(member, ['templates:read']);
    expect((await call('GET', '/api/v1/templates', { key: reader })).status).toBe(200);
  });
});

describe('GET /api/v1/templates/{id}', () => {
  it('answers the template and its graph', async () => {
    const template = await adminCreate({ name: 'Readable', graph: httpGraph() });
    const response = await call('GET', `/api/v1/templates/${template.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.template).toMatchObject({ id: template.id, name: 'Readable', nodeTypes: ['http.request@1', 'trigger.mail@1'], requiresProviders: ['http', 'mail'] });
    expect(response.body.graph).toMatchObject({ id: template.id, workflowId: template.id, connections: [{ from: 'start', to: 'call', output: 'main' }] });
    expect(response.body.graph.nodes.map((node: { id: string }) => node.id)).toEqual(['start', 'call']);
  });

  it('a disabled template is the same 404 as an unknown one for a member; an administrator sees it', async () => {
    const hidden = await adminCreate({ name: 'Hidden one', graph: webhookGraph(), enabled: false });
    for (const id of [hidden.id, unknownId, 'not-a-uuid']) {
      const response = await call('GET', `/api/v1/templates/${id}`, { cookie: member.cookie });
      expect(response.status, id).toBe(404);
      expect(response.body.error.code).toBe('templates.not_found');
    }
    const seen = await call('GET', `/api/v1/templates/${hidden.id}`, { cookie: admin.cookie });
    expect(seen.status).toBe(200);
    expect(seen.body.template.enabled).toBe(false);
  });
});

describe('POST /api/v1/templates/{id}/install', () => {
  it('makes a new draft workflow of the member (not published) and counts the install', async () => {
    const template = await adminCreate({ name: 'Installable', description: 'Does things', graph: webhookGraph() });
    const installed = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body: {} });
    expect(installed.status).toBe(201);
    expect(installed.body).toEqual({ workflowId: expect.any(String) });

    const workflow = await call('GET', `/api/v1/workflows/${installed.body.workflowId}`, { cookie: member.cookie });
    expect(workflow.status).toBe(200);
    expect(workflow.body.workflow).toMatchObject({ name: 'Installable', description: 'Does things', status: 'draft', publishedVersion: null, triggerType: 'webhook' });
    expect(workflow.body.workflow.graph.nodes).toEqual([expect.objectContaining({ id: 'start', type: 'trigger.webhook', version: 1 })]);
    expect(await db().workflowVersion.count({ where: { workflowId: installed.body.workflowId } })).toBe(0);
    expect(await db().workflow.findUniqueOrThrow({ where: { id: installed.body.workflowId } })).toMatchObject({ memberId: member.id });

    const named = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body: { name: '  My copy  ' } });
    expect(named.status).toBe(201);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: named.body.workflowId } })).name).toBe('My copy');

    const read = await call('GET', `/api/v1/templates/${template.id}`, { cookie: member.cookie });
    expect(read.body.template.installCount).toBe(2);
    // The same audit entry as any created workflow.
    expect(await db().auditEntry.count({ where: { action: 'workflow.created', targetId: named.body.workflowId, actorMemberId: member.id } })).toBe(1);
  });

  it('replays an Idempotency-Key: one workflow, one install counted, the same answer', async () => {
    const template = await adminCreate({ name: 'Replayed', graph: webhookGraph() });
    const headers = { 'idempotency-key': `install-${template.id}` };
    const first = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body: {}, headers });
    const second = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body: {}, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await db().template.findUniqueOrThrow({ where: { id: template.id } })).installCount).toBe(1);
    expect(await db().workflow.count({ where: { memberId: member.id, name: 'Replayed' } })).toBe(1);
  });

  it('409 templates.forbidden_node with details.nodeTypes for a member; an administrator may install it', async () => {
    const template = await adminCreate({ name: 'Calls out', graph: httpGraph() });
    const before = await db().workflow.count({ where: { memberId: member.id } });
    const refused = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('templates.forbidden_node');
    expect(refused.body.error.details.nodeTypes).toEqual(['http.request']);
    expect(await db().workflow.count({ where: { memberId: member.id } })).toBe(before);
    expect((await db().template.findUniqueOrThrow({ where: { id: template.id } })).installCount).toBe(0);

    const allowed = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: admin.cookie, body: {} });
    expect(allowed.status).toBe(201);
    expect((await db().template.findUniqueOrThrow({ where: { id: template.id } })).installCount).toBe(1);
  });

  it('404 templates.not_found for a member on a disabled or unknown template', async () => {
    const hidden = await adminCreate({ name: 'Not for you', graph: webhookGraph(), enabled: false });
    for (const id of [hidden.id, unknownId]) {
      const response = await call('POST', `/api/v1/templates/${id}/install`, { cookie: member.cookie, body: {} });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('templates.not_found');
    }
  });

  it('400 for a name out of bounds; workflows:write for a key', async () => {
    const template = await adminCreate({ name: 'Bounded', graph: webhookGraph() });
    for (const body of [{ name: '' }, { name: 'x'.repeat(201) }, { name: 3 }, { extra: true, name: 42 }]) {
      const response = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const { secret: reader } = await createApiKeyFor(member, ['templates:read']);
    const refused = await call('POST', `/api/v1/templates/${template.id}/install`, { key: reader, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.required).toBe('workflows:write');
    const { secret: writer } = await createApiKeyFor(member, ['workflows:write']);
    expect((await call('POST', `/api/v1/templates/${template.id}/install`, { key: writer, body: {} })).status).toBe(201);
  });
});

describe('forbidden node types in workflow graphs', () => {
  it('a member’s graph naming a forbidden type is 400 workflow.invalid_graph with an issue at the node', async () => {
    const created = await call('POST', '/api/v1/workflows', { cookie: member.cookie, body: { name: 'Caller', graph: httpGraph() } });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('workflow.invalid_graph');
    expect(created.body.error.details.issues).toContainEqual({ path: 'nodes[1].type', message: expect.stringContaining('not allowed on this instance') });

    const { workflow } = await createWorkflowRow(member, { publish: false });
    const put = await call('PUT', `/api/v1/workflows/${workflow.id}/graph`, { cookie: member.cookie, body: { graph: httpGraph() } });
    expect(put.status).toBe(400);
    expect(put.body.error.details.issues).toContainEqual({ path: 'nodes[1].type', message: expect.stringContaining('not allowed on this instance') });
    expect((await call('PUT', `/api/v1/workflows/${workflow.id}/graph`, { cookie: member.cookie, body: { graph: webhookGraph() } })).status).toBe(200);
  });

  it('a draft saved before the setting changed cannot be published by a member', async () => {
    const { workflow } = await createWorkflowRow(member, { graph: httpGraph(), publish: false });
    const published = await call('POST', `/api/v1/workflows/${workflow.id}/publish`, { cookie: member.cookie, body: {} });
    expect(published.status).toBe(400);
    expect(published.body.error.code).toBe('workflow.invalid_graph');
    expect(published.body.error.details.issues).toContainEqual({ path: 'nodes[1].type', message: expect.stringContaining('not allowed on this instance') });
  });

  it('administrators are exempt', async () => {
    const created = await call('POST', '/api/v1/workflows', { cookie: admin.cookie, body: { name: 'Admin caller', graph: httpGraph() } });
    expect(created.status).toBe(201);
  });

  it('GET /api/v1/node-types says which types are forbidden to the caller', async () => {
    const forbiddenFor = async (cookie: string) =>
      ((await call('GET', '/api/v1/node-types', { cookie })).body.nodeTypes as { type: string; forbidden: boolean }[]).filter((entry) => entry.forbidden).map((entry) => entry.type);
    expect(await forbiddenFor(member.cookie)).toEqual(['http.request']);
    expect(await forbiddenFor(admin.cookie)).toEqual([]);
  });
});

describe('template administration', () => {
  it('creates from one of the administrator’s workflows (its draft), derived facts, audited without the graph', async () => {
    const { workflow } = await createWorkflowRow(admin, { graph: httpGraph(), publish: false });
    const created = await call('POST', '/api/v1/admin/templates', {
      cookie: admin.cookie,
      body: { name: 'From my workflow', category: 'integrations', workflowId: workflow.id },
    });
    expect(created.status).toBe(201);
    expect(created.body.template).toMatchObject({ name: 'From my workflow', description: '', category: 'integrations', enabled: true, nodeTypes: ['http.request@1', 'trigger.mail@1'], requiresProviders: ['http', 'mail'], installCount: 0, createdBy: admin.id });
    const stored = await db().template.findUniqueOrThrow({ where: { id: created.body.template.id } });
    expect(stored.slug).toBeNull();
    expect(stored.graph).not.toHaveProperty('id');
    expect(stored.graph).not.toHaveProperty('workflowId');
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'template.created', targetId: stored.id } });
    expect(entry).toMatchObject({ actorMemberId: admin.id, targetKind: 'template' });
    expect(entry.details).not.toHaveProperty('graph');
    expect(JSON.stringify(entry.details)).not.toContain('example.test/hook');
  });

  it('derived fields are never taken from the input', async () => {
    const response = await call('POST', '/api/v1/admin/templates', {
      cookie: admin.cookie,
      body: { name: 'Sneaky', graph: webhookGraph(), nodeTypes: ['x@1'], requiresProviders: ['y'], installCount: 99 },
    });
    if (response.status === 201) {
      expect(response.body.template).toMatchObject({ nodeTypes: ['trigger.webhook@1'], requiresProviders: [], installCount: 0 });
    } else {
      expect(response.status).toBe(400);
    }
  });

  it('another member’s workflow is 404 workflow.not_found; neither or both sources are 400', async () => {
    const { workflow: theirs } = await createWorkflowRow(member, { publish: false });
    const foreign = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body: { name: 'Theirs', workflowId: theirs.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('workflow.not_found');
    for (const body of [{ name: 'Neither' }, { name: 'Both', workflowId: theirs.id, graph: webhookGraph() }, { name: 'Bad category', graph: webhookGraph(), category: 'nope' }]) {
      const response = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it('validates the graph like a workflow’s: 400 workflow.invalid_graph with issues', async () => {
    const graph = { nodes: [{ id: 'x', type: 'no.such_type', version: 1, name: 'X', params: {} }], connections: [{ from: 'x', to: 'ghost' }] };
    const response = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body: { name: 'Broken', graph } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('workflow.invalid_graph');
    expect(response.body.error.details.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'nodes[0].type' }), expect.objectContaining({ path: 'connections[0].to' })]));
  });

  it('replays an Idempotency-Key: one template', async () => {
    const headers = { 'idempotency-key': 'admin-template-1' };
    const body = { name: 'Idempotent admin template', graph: webhookGraph() };
    const first = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body, headers });
    const second = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body, headers });
    expect(first.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await db().template.count({ where: { name: 'Idempotent admin template' } })).toBe(1);
  });

  it('updates name, description, category and graph (facts derived again), audited with the fields', async () => {
    const template = await adminCreate({ name: 'Before', graph: webhookGraph() });
    const response = await call('PATCH', `/api/v1/admin/templates/${template.id}`, {
      cookie: admin.cookie,
      body: { name: 'After', description: 'New words', category: null, graph: httpGraph() },
    });
    expect(response.status).toBe(200);
    expect(response.body.template).toMatchObject({ name: 'After', description: 'New words', category: null, nodeTypes: ['http.request@1', 'trigger.mail@1'], requiresProviders: ['http', 'mail'] });
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'template.updated', targetId: template.id } });
    expect(entry.details).toMatchObject({ fields: ['name', 'description', 'category', 'graph'] });
    expect(entry.details).not.toHaveProperty('graph');

    const invalid = await call('PATCH', `/api/v1/admin/templates/${template.id}`, { cookie: admin.cookie, body: { graph: { nodes: [{ id: 'a', type: 'nope', version: 1, name: 'A' }] } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('workflow.invalid_graph');
    const missing = await call('PATCH', `/api/v1/admin/templates/${unknownId}`, { cookie: admin.cookie, body: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('templates.not_found');
  });

  it('enable and disable are idempotent and audited on a change', async () => {
    const template = await adminCreate({ name: 'Toggled', graph: webhookGraph() });
    for (let round = 0; round < 2; round++) {
      const disabled = await call('POST', `/api/v1/admin/templates/${template.id}/disable`, { cookie: admin.cookie, body: {} });
      expect(disabled.status).toBe(200);
      expect(disabled.body.template.enabled).toBe(false);
    }
    expect((await call('GET', `/api/v1/templates/${template.id}`, { cookie: member.cookie })).status).toBe(404);
    for (let round = 0; round < 2; round++) {
      const enabled = await call('POST', `/api/v1/admin/templates/${template.id}/enable`, { cookie: admin.cookie, body: {} });
      expect(enabled.status).toBe(200);
      expect(enabled.body.template.enabled).toBe(true);
    }
    expect((await call('GET', `/api/v1/templates/${template.id}`, { cookie: member.cookie })).status).toBe(200);
    const actions = await db().auditEntry.findMany({ where: { targetId: template.id }, orderBy: { at: 'asc' }, select: { action: true } });
    expect(actions.map((entry) => entry.action)).toEqual(['template.created', 'template.disabled', 'template.enabled']);
  });

  it('deletes a template; workflows installed from it stay', async () => {
    const template = await adminCreate({ name: 'Doomed', graph: webhookGraph() });
    const installed = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body: {} });
    const removed = await call('DELETE', `/api/v1/admin/templates/${template.id}`, { cookie: admin.cookie });
    expect(removed.status).toBe(200);
    expect(removed.body.template).toMatchObject({ id: template.id, name: 'Doomed', installCount: 1 });
    expect(await db().template.count({ where: { id: template.id } })).toBe(0);
    expect((await call('GET', `/api/v1/workflows/${installed.body.workflowId}`, { cookie: member.cookie })).status).toBe(200);
    expect(await db().auditEntry.count({ where: { action: 'template.deleted', targetId: template.id, actorMemberId: admin.id } })).toBe(1);
    expect((await call('DELETE', `/api/v1/admin/templates/${template.id}`, { cookie: admin.cookie })).body.error.code).toBe('templates.not_found');
  });

  it('starter templates may be disabled and enabled but not edited nor deleted: 409 templates.read_only', async () => {
    const starter = await insertStarter('starter-read-only');
    const patch = await call('PATCH', `/api/v1/admin/templates/${starter.id}`, { cookie: admin.cookie, body: { name: 'Renamed' } });
    expect(patch.status).toBe(409);
    expect(patch.body.error.code).toBe('templates.read_only');
    const removed = await call('DELETE', `/api/v1/admin/templates/${starter.id}`, { cookie: admin.cookie });
    expect(removed.status).toBe(409);
    expect(removed.body.error.code).toBe('templates.read_only');
    expect((await call('POST', `/api/v1/admin/templates/${starter.id}/disable`, { cookie: admin.cookie, body: {} })).body.template.enabled).toBe(false);
    expect((await call('POST', `/api/v1/admin/templates/${starter.id}/enable`, { cookie: admin.cookie, body: {} })).body.template.enabled).toBe(true);
    expect(await db().template.findUniqueOrThrow({ where: { id: starter.id } })).toMatchObject({ name: 'Starter starter-read-only', enabled: true });
  });

  it('administration needs the admin role (403 auth.forbidden for a member, even with an admin:write key)', async () => {
    const template = await adminCreate({ name: 'Guarded', graph: webhookGraph() });
    const { secret } = await createApiKeyFor(member, ['admin:write']);
    const attempts: [string, string, unknown][] = [
      ['POST', '/api/v1/admin/templates', { name: 'Mine', graph: webhookGraph() }],
      ['PATCH', `/api/v1/admin/templates/${template.id}`, { name: 'Mine' }],
      ['POST', `/api/v1/admin/templates/${template.id}/disable`, {}],
      ['POST', `/api/v1/admin/templates/${template.id}/enable`, {}],
      ['DELETE', `/api/v1/admin/templates/${template.id}`, undefined],
    ];
    for (const [method, path, body] of attempts) {
      for (const credentials of [{ cookie: member.cookie }, { key: secret }]) {
        const response = await call(method, path, { ...credentials, body });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body.error.code).toBe('auth.forbidden');
      }
    }
    const { secret: adminReader } = await createApiKeyFor(admin, ['admin:read']);
    expect((await call('POST', `/api/v1/admin/templates/${template.id}/disable`, { key: adminReader, body: {} })).status).toBe(403);
    expect(await db().template.findUniqueOrThrow({ where: { id: template.id } })).toMatchObject({ name: 'Guarded', enabled: true });
  });
});

describe('hostile input', () => {
  it('prototype-named keys in a graph’s parameters are plain keys; `__proto__` is refused', async () => {
    const params = Object.fromEntries(prototypeNames.filter((name) => name !== '__proto__').map((name) => [name, `value of ${name}`]));
    const graph = {
      nodes: [
        { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
        { id: 'set', type: 'data.set', version: 1, name: 'Set', params: { fields: [{ name: 'payload', value: params }] } },
      ],
      connections: [{ from: 'start', to: 'set' }],
    };
    const response = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body: { name: 'Prototype keys', graph } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const read = await call('GET', `/api/v1/templates/${response.body.template.id}`, { cookie: member.cookie });
    expect(read.status).toBe(200);
    expect(read.body.graph.nodes[1].params.fields[0].value).toEqual(params);
    const installed = await call('POST', `/api/v1/templates/${response.body.template.id}/install`, { cookie: member.cookie, body: {} });
    expect(installed.status).toBe(201);

    const text = `{"name":"Proto","graph":{"nodes":[{"id":"start","type":"trigger.webhook","version":1,"name":"W","params":{"__proto__":{"polluted":true}}}],"connections":[]}}`;
    const proto = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, rawBody: text, headers: { 'content-type': 'application/json' } });
    expect(proto.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    for (const name of prototypeNames) {
      const key = await call('GET', `/api/v1/templates/${name}`, { cookie: member.cookie });
      expect(key.status, name).toBe(404);
    }
  });

  it('a graph beyond the bounds is 400; a body beyond 5 MB is 413', async () => {
    const nodes = Array.from({ length: 201 }, (_, index) => ({ id: `n${index}`, type: 'logic.if', version: 1, name: `N${index}`, params: {} }));
    const tooMany = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body: { name: 'Huge', graph: { nodes, connections: [] } } });
    expect(tooMany.status).toBe(400);
    const big = { name: 'Huge', graph: { nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'W', params: {}, notes: 'x'.repeat(6 * 1024 * 1024) }], connections: [] } };
    const tooLarge = await call('POST', '/api/v1/admin/templates', { cookie: admin.cookie, body: big });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('request.payload_too_large');
    expect(await db().template.count({ where: { name: 'Huge' } })).toBe(0);
  });
});
