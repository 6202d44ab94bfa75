/**
 * Scopes follow into workflows (issue 18, item 4): a key holding only `workflows:write` must not
 * save, publish, test-run or restore a graph whose nodes reach what the key cannot (trigger.mail →
 * http.request ships every incoming mail anywhere without `messages:read`). 403
 * `api_key.scope_missing` with `details.required`; the same key with the scope added may; sessions
 * are not narrowed; an administrator's key is narrowed like anyone's.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { Scope } from '../../core/auth/scopes';
import type { GraphInput } from '../../engine/contract/graph';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

let owner: TestMember;
let admin: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  admin = await createMember({ name: 'Admin', role: 'admin' });
});

type Node = NonNullable<GraphInput['nodes']>[number];
const node = (id: string, type: string, params: Record<string, unknown> = {}): Node => ({ id, type, version: 1, name: id, params, position: { x: 0, y: 0 } });
/** A mail trigger without the sender's card (`senderCard`, which implies `contacts:read`): these graphs need `messages:read` for it and nothing more. */
const mailTrigger = () => node('mail', 'trigger.mail', { senderCard: false });
const chain = (...nodes: Node[]): GraphInput => ({
  nodes,
  connections: nodes.slice(1).map((next, index) => ({ from: nodes[index].id, output: 'main', to: next.id })),
});

/** The graph of the issue: every incoming mail shipped to a host of the caller's choosing. */
const mailToHttp = () => chain(mailTrigger(), node('ship', 'http.request', { method: 'POST', url: 'https://collector.example.test/in', body: { type: 'json', json: '{{ $trigger }}' } }));
const webhookOnly = () => chain(node('start', 'trigger.webhook'), node('set', 'data.set', { fields: [] }));

async function keyFor(member: TestMember, scopes: Scope[]) {
  return (await createApiKeyFor(member, scopes)).secret;
}

function expectScopeMissing(response: { status: number; body: { error?: { code: string; details: Record<string, unknown> } } }, required: string, nodeTypes: string[]) {
  expect(response.status, JSON.stringify(response.body)).toBe(403);
  expect(response.body.error!.code).toBe('api_key.scope_missing');
  expect(response.body.error!.details).toMatchObject({ required, nodeTypes });
}

describe('a graph written through an API key needs the scopes its node types imply', () => {
  it('creating a workflow with trigger.mail → http.request needs messages:read besides workflows:write; a session needs nothing more', async () => {
    const body = { name: 'Forward everything', graph: mailToHttp() };
    const narrow = await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write']), body });
    expectScopeMissing(narrow, 'messages:read', ['trigger.mail']);
    expect(narrow.body.error.details.missing).toEqual(['messages:read']);
    expect(await db().workflow.count({ where: { memberId: owner.id, name: 'Forward everything' } })).toBe(0);

    const wide = await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write', 'messages:read']), body });
    expect(wide.status, JSON.stringify(wide.body)).toBe(201);
    const bySession = await call('POST', '/api/v1/workflows', { cookie: owner.cookie, body });
    expect(bySession.status).toBe(201);
    // A graph that reaches nothing more still needs nothing more.
    expect((await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write']), body: { name: 'Plain', graph: webhookOnly() } })).status).toBe(201);
  });

  it('saving the draft (PUT …/graph) needs them too, and leaves the draft as it was when refused', async () => {
    const { workflow } = await createWorkflow(owner, { graph: webhookOnly(), publish: false });
    const path = `/api/v1/workflows/${workflow.id}/graph`;
    expectScopeMissing(await call('PUT', path, { key: await keyFor(owner, ['workflows:write']), body: { graph: mailToHttp() } }), 'messages:read', ['trigger.mail']);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).draftRevision).toBe(workflow.draftRevision);
    const saved = await call('PUT', path, { key: await keyFor(owner, ['workflows:write', 'messages:read']), body: { graph: mailToHttp() } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });

  it('publishing a draft a session saved needs them: the key cannot turn it on', async () => {
    const { workflow } = await createWorkflow(owner, { graph: mailToHttp(), publish: false });
    const path = `/api/v1/workflows/${workflow.id}/publish`;
    expectScopeMissing(await call('POST', path, { key: await keyFor(owner, ['workflows:write']), body: {} }), 'messages:read', ['trigger.mail']);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).publishedVersionId).toBeNull();
    expect(await db().workflowVersion.count({ where: { workflowId: workflow.id } })).toBe(0);
    const published = await call('POST', path, { key: await keyFor(owner, ['workflows:write', 'messages:read']), body: {} });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
  });

  it('test-running needs them; a test message in the trigger data needs messages:read whatever the trigger', async () => {
    const { workflow } = await createWorkflow(owner, { graph: mailToHttp(), publish: false });
    const path = `/api/v1/workflows/${workflow.id}/test-runs`;
    expectScopeMissing(await call('POST', path, { key: await keyFor(owner, ['workflows:write']), body: {} }), 'messages:read', ['trigger.mail']);
    expect(await db().execution.count({ where: { workflowId: workflow.id } })).toBe(0);
    expect((await call('POST', path, { key: await keyFor(owner, ['workflows:write', 'messages:read']), body: {} })).status).toBe(202);

    const { workflow: hook } = await createWorkflow(owner, { graph: webhookOnly(), publish: false });
    const message = await createMessage(await createMailbox(owner), { subject: 'Payroll' });
    const onMessage = await call('POST', `/api/v1/workflows/${hook.id}/test-runs`, { key: await keyFor(owner, ['workflows:write']), body: { messageId: message.id } });
    expectScopeMissing(onMessage, 'messages:read', []);
    expect(onMessage.body.error.details.reasons).toEqual(['test_message']);
    expect((await call('POST', `/api/v1/workflows/${hook.id}/test-runs`, { key: await keyFor(owner, ['workflows:write']), body: { triggerData: { a: 1 } } })).status).toBe(202);
  });

  it('restoring a version needs the scopes of the version’s graph', async () => {
    const { workflow, version } = await createWorkflow(owner, { graph: mailToHttp() });
    await db().workflow.update({ where: { id: workflow.id }, data: { graph: webhookOnly() as object } });
    const path = `/api/v1/workflows/${workflow.id}/versions/${version!.id}/restore`;
    expectScopeMissing(await call('POST', path, { key: await keyFor(owner, ['workflows:write']), body: {} }), 'messages:read', ['trigger.mail']);
    const restored = await call('POST', path, { key: await keyFor(owner, ['workflows:write', 'messages:read']), body: {} });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
  });

  it('an administrator’s key is narrowed the same way; the administrator’s session is not', async () => {
    const body = { name: 'Admin forward', graph: mailToHttp() };
    expectScopeMissing(await call('POST', '/api/v1/workflows', { key: await keyFor(admin, ['workflows:write', 'admin:write']), body }), 'messages:read', ['trigger.mail']);
    expect((await call('POST', '/api/v1/workflows', { cookie: admin.cookie, body })).status).toBe(201);
  });

  it('names every scope to add and the node types that need them, a write scope standing for its read', async () => {
    const graph = chain(
      mailTrigger(),
      node('look', 'tables.lookup', { tableId: randomUUID(), key: 'k' }),
      node('move', 'mail.move', { folder: 'archive' }),
      node('ship', 'http.request', { url: 'https://collector.example.test', credentialId: randomUUID() }),
      node('tell', 'notify.owner', { title: 'Done' }),
    );
    const response = await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write', 'tables:read']), body: { name: 'Many', graph } });
    expect(response.status, JSON.stringify(response.body)).toBe(403);
    expect(response.body.error.details).toEqual({
      required: 'connections:read',
      missing: ['connections:read', 'messages:write', 'notifications:write'],
      nodeTypes: ['http.request', 'mail.move', 'notify.owner', 'trigger.mail'],
    });
  });
});

describe('the mail trigger’s sender card is address book data', () => {
  it('on by default, it needs contacts:read through a key; a key without it may write the trigger with the card off', async () => {
    const withCard = chain(node('mail', 'trigger.mail'), node('tell', 'notify.owner', { title: '{{ $trigger.contact.notes }}' }));
    const narrow = await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write', 'messages:read', 'notifications:write']), body: { name: 'Card', graph: withCard } });
    expectScopeMissing(narrow, 'contacts:read', ['trigger.mail']);
    expect(narrow.body.error.details.missing).toEqual(['contacts:read']);
    const wide = await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write', 'messages:read', 'notifications:write', 'contacts:read']), body: { name: 'Card', graph: withCard } });
    expect(wide.status, JSON.stringify(wide.body)).toBe(201);
    const cardless = chain(mailTrigger(), node('tell', 'notify.owner', { title: 'New mail' }));
    const allowed = await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write', 'messages:read', 'notifications:write']), body: { name: 'No card', graph: cardless } });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
  });
});

describe('a workflow called through a sub-workflow or a loop counts with the caller', () => {
  it('a literal target adds its published graph’s scopes, naming the workflow', async () => {
    const { workflow: mover } = await createWorkflow(owner, { graph: chain(node('start', 'trigger.webhook'), node('move', 'mail.move', { folder: 'trash', messageId: '{{ $trigger.id }}' })) });
    const caller = chain(node('start', 'trigger.webhook'), node('call', 'flow.sub_workflow', { workflowId: mover.id }), node('ship', 'http.request', { url: 'https://collector.example.test' }));
    const refused = await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write']), body: { name: 'Caller', graph: caller } });
    expectScopeMissing(refused, 'messages:write', ['mail.move']);
    expect(refused.body.error.details.workflowIds).toEqual([mover.id]);
    expect((await call('POST', '/api/v1/workflows', { key: await keyFor(owner, ['workflows:write', 'messages:write']), body: { name: 'Caller', graph: caller } })).status).toBe(201);
  });

  it('what the target calls counts too (transitively), and a target given by an expression counts every published workflow', async () => {
    const member = await createMember();
    const { workflow: reader } = await createWorkflow(member, { graph: chain(node('start', 'trigger.webhook'), node('look', 'tables.lookup', { tableId: randomUUID(), key: 'k' })) });
    const { workflow: middle } = await createWorkflow(member, { graph: chain(node('start', 'trigger.webhook'), node('call', 'flow.sub_workflow', { workflowId: reader.id })) });
    const viaMiddle = chain(node('start', 'trigger.webhook'), node('call', 'flow.sub_workflow', { workflowId: middle.id }));
    const key = await keyFor(member, ['workflows:write']);
    const transitive = await call('POST', '/api/v1/workflows', { key, body: { name: 'Via middle', graph: viaMiddle } });
    expectScopeMissing(transitive, 'tables:read', ['tables.lookup']);
    expect(transitive.body.error.details.workflowIds).toEqual([reader.id]);

    const dynamic = chain(node('start', 'trigger.webhook'), node('loop', 'flow.loop', { items: '{{ $trigger.items }}', workflowId: '{{ $trigger.target }}' }));
    const anyTarget = await call('POST', '/api/v1/workflows', { key, body: { name: 'Any target', graph: dynamic } });
    expectScopeMissing(anyTarget, 'tables:read', ['tables.lookup']);
    expect((await call('POST', '/api/v1/workflows', { key: await keyFor(member, ['workflows:write', 'tables:read']), body: { name: 'Any target', graph: dynamic } })).status).toBe(201);
  });
});

describe('changing settings through a key', () => {
  it('sending without review takes the review queue away: it needs review:write', async () => {
    const { workflow } = await createWorkflow(owner, { graph: webhookOnly() });
    const path = `/api/v1/workflows/${workflow.id}`;
    const refused = await call('PATCH', path, { key: await keyFor(owner, ['workflows:write']), body: { settings: { sendWithoutReview: true } } });
    expectScopeMissing(refused, 'review:write', []);
    expect(refused.body.error.details.reasons).toEqual(['send_without_review']);
    expect((await call('PATCH', path, { key: await keyFor(owner, ['workflows:write']), body: { settings: { sendWithoutReview: false } } })).status).toBe(200);
    expect((await call('PATCH', path, { key: await keyFor(owner, ['workflows:write', 'review:write']), body: { settings: { sendWithoutReview: true } } })).status).toBe(200);
  });
});
