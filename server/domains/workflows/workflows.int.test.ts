/**
 * The workflows routes: create, list, read, change settings, replace the draft graph, pin test
 * messages, delete; scopes and the 404-not-403 rule on every route.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { findNodeType } from '../../engine/nodes/registry';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow, webhookGraph } from '../../testing/workflow-factories';

await useTestDatabase();

let owner: TestMember;
let other: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  other = await createMember({ name: 'Other' });
});

const start = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };

async function create(member: TestMember, body: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v1/workflows', { cookie: member.cookie, body: { name: 'My workflow', ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.workflow as { id: string; draftRevision: number };
}

async function putGraph(member: TestMember, id: string, graph: unknown, extra: Record<string, unknown> = {}) {
  return call('PUT', `/api/v1/workflows/${id}/graph`, { cookie: member.cookie, body: { graph, ...extra } });
}

function issuePaths(response: { status: number; body: { error: { code: string; details: { issues: { path: string }[] } } } }) {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('workflow.invalid_graph');
  return response.body.error.details.issues.map((issue) => issue.path);
}

describe('POST /api/v1/workflows', () => {
  it('creates a draft (201) with every field of the record, and audits it', async () => {
    const response = await call('POST', '/api/v1/workflows', { cookie: owner.cookie, body: { name: '  Invoices  ', description: 'Sorts invoices' } });
    expect(response.status).toBe(201);
    const { workflow } = response.body;
    expect(workflow).toEqual({
      id: expect.any(String),
      name: 'Invoices',
      description: 'Sorts invoices',
      status: 'draft',
      publishedVersion: null,
      triggerType: null,
      draftRevision: 1,
      errorWorkflowId: null,
      maxConcurrency: null,
      executionTimeoutMs: null,
      sendWithoutReview: false,
      oneRunAtATime: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await db().auditEntry.count({ where: { action: 'workflow.created', targetId: workflow.id } })).toBe(1);
  });

  it('takes an optional graph, validated', async () => {
    const workflow = await create(owner, { graph: webhookGraph() });
    const detail = await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(detail.body.workflow.triggerType).toBe('webhook');
    expect(detail.body.workflow.graph.nodes.map((node: { id: string }) => node.id)).toEqual(['start']);
    const bad = await call('POST', '/api/v1/workflows', { cookie: owner.cookie, body: { name: 'x', graph: { nodes: [{ ...start, type: 'nope' }] } } });
    expect(issuePaths(bad)).toEqual(['nodes[0].type']);
  });

  it.each([
    ['an empty name', { name: ' ' }],
    ['a name over 200 characters', { name: 'x'.repeat(201) }],
    ['no name', {}],
  ])('refuses %s (400 request.bad_request)', async (_label, body) => {
    const response = await call('POST', '/api/v1/workflows', { cookie: owner.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});

describe('GET /api/v1/workflows and /api/v1/workflows/{id}', () => {
  it('lists the member’s workflows whole, none of another member', async () => {
    const mine = await create(owner, { name: 'Listed' });
    const theirs = await create(other);
    const response = await call('GET', '/api/v1/workflows', { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const ids = response.body.workflows.map((workflow: { id: string }) => workflow.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
  });

  it('reads one with its draft graph, executionLimits, testMessageIds and webhook state (never a token)', async () => {
    const workflow = await create(owner, { graph: webhookGraph() });
    const response = await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const detail = response.body.workflow;
    expect(detail.graph).toMatchObject({ id: workflow.id, workflowId: workflow.id, connections: [] });
    expect(detail.executionLimits).toEqual({
      maxConcurrency: { effective: 10, ceiling: 100, instanceTotal: 100 },
      executionTimeoutMs: { effective: 3_600_000, ceiling: 86_400_000, minimum: 60_000 },
      waitMs: { effective: 30 * 24 * 3_600_000, ceiling: 30 * 24 * 3_600_000 },
    });
    expect(detail.testMessageIds).toEqual([]);
    expect(detail.webhook).toEqual({ configured: false, requireSignature: false });
  });
});

describe('another member’s workflow is 404 workflow.not_found on every route', () => {
  const routes: [string, (id: string) => string, unknown][] = [
    ['GET', (id) => `/api/v1/workflows/${id}`, undefined],
    ['PATCH', (id) => `/api/v1/workflows/${id}`, { name: 'x' }],
    ['PUT', (id) => `/api/v1/workflows/${id}/graph`, { graph: webhookGraph() }],
    ['POST', (id) => `/api/v1/workflows/${id}/publish`, {}],
    ['POST', (id) => `/api/v1/workflows/${id}/unpublish`, {}],
    ['POST', (id) => `/api/v1/workflows/${id}/pause`, {}],
    ['POST', (id) => `/api/v1/workflows/${id}/resume`, {}],
    ['POST', (id) => `/api/v1/workflows/${id}/archive`, {}],
    ['GET', (id) => `/api/v1/workflows/${id}/versions`, undefined],
    ['GET', (id) => `/api/v1/workflows/${id}/versions/${randomUUID()}`, undefined],
    ['PUT', (id) => `/api/v1/workflows/${id}/test-messages`, { messageIds: [] }],
    ['POST', (id) => `/api/v1/workflows/${id}/test-runs`, {}],
    ['POST', (id) => `/api/v1/workflows/${id}/webhook`, {}],
    ['DELETE', (id) => `/api/v1/workflows/${id}`, undefined],
  ];

  it.each(routes)('%s %s', async (method, path, body) => {
    const { workflow } = await createWorkflow(other, { publish: true });
    for (const id of [workflow.id, randomUUID(), 'not-a-uuid']) {
      const response = await call(method, path(id), { cookie: owner.cookie, body });
      expect(response.status, `${method} ${path(id)}`).toBe(404);
      expect(response.body.error.code).toBe('workflow.not_found');
    }
    // Untouched.
    const after = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect(after.publishedVersionId).toBe(workflow.publishedVersionId);
  });
});

describe('scopes', () => {
  it('workflows:read reads but does not write; another scope does neither (403)', async () => {
    const workflow = await create(owner);
    const { secret: reader } = await createApiKeyFor(owner, ['workflows:read']);
    expect((await call('GET', `/api/v1/workflows/${workflow.id}`, { key: reader })).status).toBe(200);
    expect((await call('GET', '/api/v1/workflows', { key: reader })).status).toBe(200);
    const refused = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { key: reader, body: { name: 'x' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('api_key.scope_missing');
    const { secret: stranger } = await createApiKeyFor(owner, ['tables:read']);
    expect((await call('GET', '/api/v1/workflows', { key: stranger })).status).toBe(403);
    const { secret: writer } = await createApiKeyFor(owner, ['workflows:write']);
    expect((await call('POST', '/api/v1/workflows', { key: writer, body: { name: 'By key' } })).status).toBe(201);
  });

  it('without credentials: 401', async () => {
    expect((await call('GET', '/api/v1/workflows')).status).toBe(401);
  });
});

describe('PATCH /api/v1/workflows/{id}', () => {
  it('changes name, description and limits; null restores a default', async () => {
    const workflow = await create(owner);
    const response = await call('PATCH', `/api/v1/workflows/${workflow.id}`, {
      cookie: owner.cookie,
      body: { name: 'Renamed', description: 'New', settings: { maxConcurrency: 3, executionTimeoutMs: 60_000 } },
    });
    expect(response.status).toBe(200);
    expect(response.body.workflow).toMatchObject({ name: 'Renamed', description: 'New', maxConcurrency: 3, executionTimeoutMs: 60_000 });
    const detail = await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(detail.body.workflow.executionLimits.maxConcurrency.effective).toBe(3);
    const cleared = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie, body: { settings: { maxConcurrency: null } } });
    expect(cleared.body.workflow).toMatchObject({ name: 'Renamed', maxConcurrency: null, executionTimeoutMs: 60_000 });
  });

  it.each([
    ['maxConcurrency', 101, { minimum: 1, ceiling: 100 }],
    ['maxConcurrency', 0, { minimum: 1, ceiling: 100 }],
    ['executionTimeoutMs', 59_999, { minimum: 60_000, ceiling: 86_400_000 }],
    ['executionTimeoutMs', 86_400_001, { minimum: 60_000, ceiling: 86_400_000 }],
  ])('refuses %s = %s with 409 workflow.execution_limit_invalid and its bounds', async (field, value, bounds) => {
    const workflow = await create(owner);
    const response = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie, body: { settings: { [field]: value } } });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'workflow.execution_limit_invalid', details: { field, value, ...bounds } });
  });

  it('refuses an error workflow that is another member’s, this one, unknown, or not started by the workflow-failure trigger', async () => {
    const workflow = await create(owner, { graph: webhookGraph() });
    const plain = await create(owner, { graph: webhookGraph() });
    const { workflow: theirs } = await createWorkflow(other);
    for (const errorWorkflowId of [theirs.id, workflow.id, plain.id, randomUUID(), 'nope']) {
      const response = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie, body: { settings: { errorWorkflowId } } });
      expect(response.status, errorWorkflowId).toBe(409);
      expect(response.body.error.code).toBe('workflow.invalid_error_workflow');
    }
    const cleared = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie, body: { settings: { errorWorkflowId: null } } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.workflow.errorWorkflowId).toBeNull();
  });

  it.skipIf(!findNodeType('trigger.workflow_failure', 1))(
    'accepts another of the member’s workflows that starts with the workflow-failure trigger (needs the trigger.workflow_failure node type)',
    async () => {
      const workflow = await create(owner, { graph: webhookGraph() });
      const handler = await create(owner, { graph: { nodes: [{ id: 'failed', type: 'trigger.workflow_failure', version: 1, name: 'Failure', params: {} }] } });
      const response = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie, body: { settings: { errorWorkflowId: handler.id } } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.workflow.errorWorkflowId).toBe(handler.id);
    },
  );
});

describe('PATCH /api/v1/workflows/{id}: oneRunAtATime (issue 24 §3)', () => {
  const patch = (id: string, oneRunAtATime: unknown, member: TestMember = owner) => call('PATCH', `/api/v1/workflows/${id}`, { cookie: member.cookie, body: { settings: { oneRunAtATime } } });

  it('sets a key (with defaults), shows it on the record and the detail, audits it, and null makes runs independent again', async () => {
    const workflow = await create(owner);
    const set = await patch(workflow.id, { by: 'thread', coalesceSeconds: 120 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.workflow.oneRunAtATime).toEqual({ by: 'thread', expression: null, coalesceSeconds: 120 });
    const detail = await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(detail.body.workflow.oneRunAtATime).toEqual({ by: 'thread', expression: null, coalesceSeconds: 120 });
    // An expression given with another key is not kept.
    expect((await patch(workflow.id, { by: 'sender', expression: '{{ trigger.subject }}' })).body.workflow.oneRunAtATime).toEqual({ by: 'sender', expression: null, coalesceSeconds: 0 });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'workflow.updated', targetId: workflow.id }, orderBy: { at: 'desc' } });
    expect(audit.details).toMatchObject({ fields: ['oneRunAtATime'] });
    expect((await patch(workflow.id, null)).body.workflow.oneRunAtATime).toBeNull();
    // Other settings survive each change.
    await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie, body: { settings: { sendWithoutReview: true } } });
    const both = await patch(workflow.id, { by: 'expression', expression: '{{ trigger.order.id & "-" & trigger.customer }}' });
    expect(both.body.workflow).toMatchObject({ sendWithoutReview: true, oneRunAtATime: { by: 'expression', expression: '{{ trigger.order.id & "-" & trigger.customer }}', coalesceSeconds: 0 } });
  });

  it.each([
    ['an unknown key', { by: 'subject' }],
    ['a window over an hour', { by: 'sender', coalesceSeconds: 3_601 }],
    ['a negative window', { by: 'sender', coalesceSeconds: -1 }],
    ['a fractional window', { by: 'sender', coalesceSeconds: 1.5 }],
    ['an expression over 500 characters', { by: 'expression', expression: `{{ trigger.${'a'.repeat(500)} }}` }],
    ['a string instead of an object', 'thread'],
  ])('refuses %s with 400 request.bad_request', async (_, value) => {
    const workflow = await create(owner);
    const response = await patch(workflow.id, value);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
    expect((await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie })).body.workflow.oneRunAtATime).toBeNull();
  });

  it.each([
    ['no expression', { by: 'expression' }, 'required', /required/],
    ['a blank expression', { by: 'expression', expression: '   ' }, 'required', /required/],
    ['text without {{ }}', { by: 'expression', expression: 'trigger.orderId' }, 'no_expression', /between \{\{ and \}\}/],
    ['an expression that does not compile', { by: 'expression', expression: '{{ trigger.( }}' }, 'invalid', /./],
    ['a function call', { by: 'expression', expression: '{{ $lowercase(trigger.from.email) }}' }, 'not_inline', /no function calls/],
    ['a filter', { by: 'expression', expression: '{{ trigger.items[price > 10].sku }}' }, 'not_inline', /no function calls/],
  ])('refuses a key expression with %s (400, the reason as a code and in words, naming the field)', async (_, value, code, reason) => {
    const workflow = await create(owner);
    const response = await patch(workflow.id, value);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'request.bad_request', details: { field: 'settings.oneRunAtATime.expression', reason: code } });
    expect(response.body.error.message).toMatch(reason);
  });

  it('another member’s workflow is 404; a prototype-named key inside the setting is not stored', async () => {
    const workflow = await create(owner);
    expect((await patch(workflow.id, { by: 'thread' }, other)).status).toBe(404);
    const response = await call('PATCH', `/api/v1/workflows/${workflow.id}`, {
      cookie: owner.cookie,
      rawBody: '{"settings":{"oneRunAtATime":{"by":"thread","__proto__":{"polluted":true},"constructor":{"x":1}}}}',
      headers: { 'content-type': 'application/json' },
    });
    // Unknown keys are dropped by the schema: the setting is stored as declared, nothing else.
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const stored = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect(stored.settings).toEqual({ oneRunAtATime: { by: 'thread', expression: null, coalesceSeconds: 0 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('PUT /api/v1/workflows/{id}/graph', () => {
  it('stores the whole graph and answers it with the next draftRevision', async () => {
    const workflow = await create(owner);
    const graph = webhookGraph({ notes: [{ id: 'n1', text: 'Remember' }], pins: { start: { output: { a: 1 }, pinnedAt: '2026-01-01T00:00:00Z' } } });
    const response = await putGraph(owner, workflow.id, graph, { draftRevision: 1 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.draftRevision).toBe(2);
    expect(response.body.graph).toMatchObject({ id: workflow.id, workflowId: workflow.id, nodes: [{ id: 'start', onError: 'fail', disabled: false }], notes: [{ id: 'n1' }] });
    expect(response.body.graph.pins.start.output).toEqual({ a: 1 });
    const again = await putGraph(owner, workflow.id, graph);
    expect(again.body.draftRevision).toBe(3);
  });

  it('refuses a stale draftRevision (409 workflow.revision_conflict with the current one)', async () => {
    const workflow = await create(owner);
    await putGraph(owner, workflow.id, webhookGraph());
    const response = await putGraph(owner, workflow.id, webhookGraph(), { draftRevision: 1 });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'workflow.revision_conflict', details: { draftRevision: 2 } });
  });

  it.each([
    ['an unknown node type', { nodes: [start, { ...start, id: 'b', type: 'nope.nope' }] }, ['nodes[1].type']],
    ['an unknown version', { nodes: [{ ...start, version: 99 }] }, ['nodes[0].version']],
    ['duplicate node ids (two triggers too)', { nodes: [start, start] }, ['nodes[1].id', 'nodes[1]']],
    ['duplicate sticky-note ids', { nodes: [start], notes: [{ id: 'n' }, { id: 'n' }] }, ['notes[1].id']],
    ['a connection to no node', { nodes: [start], connections: [{ from: 'start', to: 'ghost' }] }, ['connections[0].to']],
    ['a connection from no node', { nodes: [start], connections: [{ from: 'ghost', to: 'start' }] }, ['connections[0].from']],
  ])('refuses %s (400 workflow.invalid_graph at the offending path)', async (_label, graph, paths) => {
    const workflow = await create(owner);
    expect(issuePaths(await putGraph(owner, workflow.id, graph))).toEqual(paths);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).draftRevision).toBe(1);
  });

  it.each([
    ['an output the source lacks', { nodes: [start, { ...start, id: 'b' }], connections: [{ from: 'start', output: 'nope', to: 'b' }] }, ['nodes[1]', 'connections[0].output']],
    ['an input the target lacks', { nodes: [start], connections: [{ from: 'start', to: 'start', input: 'side' }] }, ['connections[0].input', 'connections[0]']],
    ['a cycle', { nodes: [start], connections: [{ from: 'start', to: 'start' }] }, ['connections[0]']],
    ['two triggers', { nodes: [start, { ...start, id: 'b' }] }, ['nodes[1]']],
    ['parameters the node type does not take', { nodes: [{ ...start, params: { url: 'x' } }] }, ['nodes[0].params']],
  ])('saves a draft with %s, answering the issue at its path', async (_label, graph, paths) => {
    const workflow = await create(owner);
    const response = await putGraph(owner, workflow.id, graph);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.issues.map((issue: { path: string }) => issue.path)).toEqual(paths);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).draftRevision).toBe(2);
  });

  it('refuses a malformed shape with 400 request.bad_request', async () => {
    const workflow = await create(owner);
    const response = await putGraph(owner, workflow.id, { nodes: [{ id: 'bad id!', type: 'x', version: 0, name: '' }] });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('refuses parameters nested deeper than 64 levels, even 10,000 deep (400 request.bad_request, never a 500)', async () => {
    const workflow = await create(owner);
    for (const depth of [65, 10_000]) {
      const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const response = await call('PUT', `/api/v1/workflows/${workflow.id}/graph`, {
        cookie: owner.cookie,
        rawBody: `{"graph":{"nodes":[{"id":"s","type":"trigger.webhook","version":1,"name":"n","params":{"deep":${deep}}}]}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, String(depth)).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it.each(prototypeNames)('treats %s as data: a node id and pin key, or a parameter name the node type refuses', async (name) => {
    const workflow = await create(owner);
    const raw = (body: string) => call('PUT', `/api/v1/workflows/${workflow.id}/graph`, { cookie: owner.cookie, rawBody: body, headers: { 'content-type': 'application/json' } });
    const key = JSON.stringify(name);
    const asNode = await raw(
      `{"graph":{"nodes":[{"id":${key},"type":"trigger.webhook","version":1,"name":"n"}],"connections":[],"pins":{${key}:{"output":{${key}:1},"pinnedAt":"now"}}}}`,
    );
    const asParam = await raw(`{"graph":{"nodes":[{"id":"s","type":"trigger.webhook","version":1,"name":"n","params":{${key}:1}}],"connections":[]}}`);
    if (name === '__proto__') {
      // zod's records would drop it silently: refused instead, never a success for lost data.
      expect(asNode.status).toBe(400);
      expect(asNode.body.error.code).toBe('request.bad_request');
      expect(asParam.status).toBe(400);
      expect(asParam.body.error.code).toBe('request.bad_request');
      return;
    }
    expect(asNode.status, JSON.stringify(asNode.body)).toBe(200);
    expect(asNode.body.graph.nodes[0].id).toBe(name);
    expect(Object.hasOwn(asNode.body.graph.pins, name)).toBe(true);
    expect(Object.hasOwn(asNode.body.graph.pins[name].output, name)).toBe(true);
    // A parameter the node type does not take is the draft's to fix: saved, with the issue.
    expect(asParam.status, JSON.stringify(asParam.body)).toBe(200);
    expect(asParam.body.issues.map((issue: { path: string }) => issue.path)).toEqual(['nodes[0].params']);
  });
});

describe('PUT /api/v1/workflows/{id}/test-messages', () => {
  it('pins messages of the member’s own mailboxes (deduplicated), shown on the workflow', async () => {
    const workflow = await create(owner);
    const mailbox = await createMailbox(owner);
    const [a, b] = [await createMessage(mailbox), await createMessage(mailbox)];
    const response = await call('PUT', `/api/v1/workflows/${workflow.id}/test-messages`, { cookie: owner.cookie, body: { messageIds: [a.id, b.id, a.id] } });
    expect(response.status).toBe(200);
    expect(response.body.testMessageIds).toEqual([a.id, b.id]);
    expect((await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie })).body.workflow.testMessageIds).toEqual([a.id, b.id]);
  });

  it('refuses another member’s or an unknown message (400 workflow.test_message_not_found naming them), and more than 20', async () => {
    const workflow = await create(owner);
    const mine = await createMessage(await createMailbox(owner));
    const theirs = await createMessage(await createMailbox(other));
    const unknown = randomUUID();
    const response = await call('PUT', `/api/v1/workflows/${workflow.id}/test-messages`, { cookie: owner.cookie, body: { messageIds: [mine.id, theirs.id, unknown] } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'workflow.test_message_not_found', details: { messageIds: [theirs.id, unknown] } });
    const tooMany = await call('PUT', `/api/v1/workflows/${workflow.id}/test-messages`, {
      cookie: owner.cookie,
      body: { messageIds: Array.from({ length: 21 }, () => randomUUID()) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('request.bad_request');
  });
});

describe('DELETE /api/v1/workflows/{id}', () => {
  it('deletes the workflow and its versions; its executions stay; audited', async () => {
    const { workflow, version } = await createWorkflow(owner);
    const execution = await db().execution.create({
      data: { memberId: owner.id, workflowId: workflow.id, workflowVersionId: version!.id, timeoutMs: 60_000, status: 'succeeded' },
    });
    const response = await call('DELETE', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.body.workflow).toMatchObject({ id: workflow.id, status: 'published' });
    expect(await db().workflow.findUnique({ where: { id: workflow.id } })).toBeNull();
    expect(await db().workflowVersion.count({ where: { workflowId: workflow.id } })).toBe(0);
    expect(await db().execution.findUnique({ where: { id: execution.id } })).not.toBeNull();
    expect(await db().auditEntry.count({ where: { action: 'workflow.deleted', targetId: workflow.id } })).toBe(1);
    expect((await call('DELETE', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie })).status).toBe(404);
  });

  it('clears it as the error workflow of the member’s other workflows', async () => {
    const handler = await create(owner);
    const watched = await create(owner);
    await db().workflow.update({ where: { id: watched.id }, data: { errorWorkflowId: handler.id } });
    expect((await call('DELETE', `/api/v1/workflows/${handler.id}`, { cookie: owner.cookie })).status).toBe(200);
    expect((await call('GET', `/api/v1/workflows/${watched.id}`, { cookie: owner.cookie })).body.workflow.errorWorkflowId).toBeNull();
  });
});
