/**
 * Issue 19 §6: an incomplete node never blocks saving the draft. The draft saves with its issues
 * (sentences naming the field, never zod's "expected array, received undefined"); only publishing,
 * test runs and evaluations need a valid graph. A graph that cannot be kept at all is still refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let owner: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
/** An "If" dropped from the palette and not filled yet: no conditions. */
const emptyIf = { id: 'check', type: 'logic.if', version: 1, name: 'If', params: {} };
const incomplete = { nodes: [trigger, emptyIf], connections: [{ from: 'start', to: 'check' }] };

async function create(graph?: unknown) {
  const response = await call('POST', '/api/v1/workflows', { cookie: owner.cookie, body: { name: 'Draft', ...(graph ? { graph } : {}) } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { workflow: { id: string }; issues: { path: string; message: string; rule?: { kind: string } }[] };
}

const putGraph = (id: string, graph: unknown, draftRevision?: number) =>
  call('PUT', `/api/v1/workflows/${id}/graph`, { cookie: owner.cookie, body: { graph, ...(draftRevision ? { draftRevision } : {}) } });

describe('an incomplete node never blocks saving the draft', () => {
  it('PUT …/graph stores a draft whose node lacks a required parameter, and answers the issue at the node', async () => {
    const { workflow } = await create();
    const response = await putGraph(workflow.id, incomplete, 1);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.draftRevision).toBe(2);
    expect(response.body.graph.nodes.map((node: { id: string }) => node.id)).toEqual(['start', 'check']);
    expect(response.body.issues).toEqual([{ path: 'nodes[1].params.conditions', message: 'Add at least one item to “Conditions”.', rule: { kind: 'too_few', minimum: 1 } }]);
    const stored = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect((stored.graph as { nodes: { id: string }[] }).nodes.map((node) => node.id)).toEqual(['start', 'check']);
  });

  it('GET /workflows/{id} shows the saved draft’s issues (draftIssues), and none once it is complete', async () => {
    const { workflow } = await create(incomplete);
    const before = await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(before.body.workflow.draftIssues.map((issue: { path: string }) => issue.path)).toEqual(['nodes[1].params.conditions']);
    const filled = { ...incomplete, nodes: [trigger, { ...emptyIf, params: { conditions: [{ left: '{{ trigger.subject }}', operator: 'contains', right: 'urgent' }] } }] };
    const saved = await putGraph(workflow.id, filled);
    expect(saved.body.issues).toEqual([]);
    const after = await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(after.body.workflow.draftIssues).toEqual([]);
  });

  it('POST /workflows creates an incomplete draft and answers its issues', async () => {
    const body = await create(incomplete);
    expect(body.issues.map((issue) => issue.path)).toEqual(['nodes[1].params.conditions']);
  });

  it('publishing and a test run of an incomplete draft are refused with the same issues (400 workflow.invalid_graph)', async () => {
    const { workflow } = await create(incomplete);
    const publish = await call('POST', `/api/v1/workflows/${workflow.id}/publish`, { cookie: owner.cookie, body: {} });
    expect(publish.status).toBe(400);
    expect(publish.body.error.code).toBe('workflow.invalid_graph');
    expect(publish.body.error.details.issues).toEqual([{ path: 'nodes[1].params.conditions', message: 'Add at least one item to “Conditions”.', rule: { kind: 'too_few', minimum: 1 } }]);
    const test = await call('POST', `/api/v1/workflows/${workflow.id}/test-runs`, { cookie: owner.cookie, body: {} });
    expect(test.status).toBe(400);
    expect(test.body.error.code).toBe('workflow.invalid_graph');
  });

  it('validation messages are sentences naming the field in words, never zod’s own text', async () => {
    const { workflow } = await create();
    const graph = {
      nodes: [
        trigger,
        { ...emptyIf, params: { conditions: [], combine: 'most' } },
        { id: 'fetch', type: 'http.request', version: 1, name: 'Fetch', params: { url: 'https://a.example', maxResponseBytes: 'big' } },
      ],
      connections: [],
    };
    const response = await putGraph(workflow.id, graph);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const byPath = Object.fromEntries(response.body.issues.map((issue: { path: string; message: string }) => [issue.path, issue.message]));
    expect(byPath['nodes[1].params.conditions']).toBe('Add at least one item to “Conditions”.');
    expect(byPath['nodes[1].params.combine']).toBe('Choose one of the options for “Combine”.');
    expect(byPath['nodes[2].params.maxResponseBytes']).toBe('“Max response bytes” must be a number.');
    for (const message of Object.values(byPath) as string[]) expect(message).not.toMatch(/expected|received|Invalid/);
  });

  it('a graph that cannot be kept (an unknown node type) is still refused: 400 workflow.invalid_graph, nothing stored', async () => {
    const { workflow } = await create();
    const response = await putGraph(workflow.id, { nodes: [trigger, { ...emptyIf, type: 'nope.nope' }], connections: [] });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('workflow.invalid_graph');
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).draftRevision).toBe(1);
  });
});
