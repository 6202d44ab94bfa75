/**
 * Scopes follow into workflows wherever a graph is written or run on a key's behalf (issue 18, item
 * 4): a template install, the analyzer's "create this workflow", the assistant's accepted proposal,
 * an evaluation run, a replay and a bulk retry. And GET /api/v1/node-types shows what each type needs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { Scope } from '../../core/auth/scopes';
import type { GraphInput } from '../../engine/contract/graph';
import { buildOpportunityGraph } from '../analyzer/graphs';
import { createExecution } from '../../testing/execution-factories';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow, webhookGraph } from '../../testing/workflow-factories';

await useTestDatabase();

let owner: TestMember;
let mailbox: { id: string };
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  mailbox = await createMailbox(owner);
  await createMessage(mailbox, { subject: 'Salary review' });
});

type Node = NonNullable<GraphInput['nodes']>[number];
const node = (id: string, type: string, params: Record<string, unknown> = {}): Node => ({ id, type, version: 1, name: id, params, position: { x: 0, y: 0 } });
/** A mail trigger without the sender's card (`senderCard`, which implies `contacts:read`): these graphs need `messages:read` for it and nothing more. */
const mailTrigger = () => node('mail', 'trigger.mail', { senderCard: false });
const chain = (...nodes: Node[]): GraphInput => ({
  nodes,
  connections: nodes.slice(1).map((next, index) => ({ from: nodes[index].id, output: 'main', to: next.id })),
});
const mailToHttp = () => chain(mailTrigger(), node('ship', 'http.request', { method: 'POST', url: 'https://collector.example.test/in' }));

const keyFor = async (scopes: Scope[]) => (await createApiKeyFor(owner, scopes)).secret;

function expectScopeMissing(response: { status: number; body: { error?: { code: string; details: Record<string, unknown> } } }, required: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(403);
  expect(response.body.error!.code).toBe('api_key.scope_missing');
  expect(response.body.error!.details.required).toBe(required);
}

describe('installing a template through a key', () => {
  it('needs the scopes of the template’s graph: a key with only workflows:write cannot install mail → HTTP', async () => {
    const template = await db().template.create({ data: { name: 'Forward mail', graph: mailToHttp() as object, nodeTypes: ['trigger.mail@1', 'http.request@1'] } });
    const path = `/api/v1/templates/${template.id}/install`;
    const refused = await call('POST', path, { key: await keyFor(['workflows:write']), body: {} });
    expectScopeMissing(refused, 'messages:read');
    expect(refused.body.error.details.nodeTypes).toEqual(['trigger.mail']);
    expect((await db().template.findUniqueOrThrow({ where: { id: template.id } })).installCount).toBe(0);
    expect((await call('POST', path, { key: await keyFor(['workflows:write', 'messages:read']), body: {} })).status).toBe(201);
    expect((await call('POST', path, { cookie: owner.cookie, body: {} })).status).toBe(201);
  });
});

describe('the analyzer’s “create this workflow” through a key', () => {
  it('needs the scopes of the opportunity’s graph', async () => {
    const group = { key: 'domain:news.example', kind: 'domain' as const, label: 'news.example', volume: 40, senders: 2, topSenders: ['a@news.example'], sampleSubjects: ['Weekly'], mailingListShare: 1, noReplyShare: 0, attachmentShare: 0 };
    const stats = { received30d: 0, excluded30d: 0, unmatched30d: 0, dispatched30d: 0, messages30d: 0, messages90d: 0, messages365d: 0, senders: 0, domains: 0, groups: 1, groupsAnalyzed: 1, peakHours: [], llmOutcome: null };
    const opportunity = {
      key: 'o1',
      kind: 'label_archive',
      title: 'Newsletters',
      rationale: 'Read later.',
      evidence: { groups: [{ key: group.key, label: group.label, volume: 40 }], messages: 40, sampleSubjects: ['Weekly'] },
      graph: buildOpportunityGraph('label_archive', mailbox.id, [group], 'Newsletters'),
    };
    await db().mailboxAnalysis.create({ data: { mailboxId: mailbox.id, memberId: owner.id, windowDays: 90, minGroupVolume: 5, status: 'done', body: { stats, groups: [group], opportunities: [opportunity] } as object } });
    const path = `/api/v1/mailboxes/${mailbox.id}/analyzer/opportunities/o1/create`;
    // The opportunity's mail trigger keeps the sender's card (its default): contacts:read is part of what it needs.
    const refused = await call('POST', path, { key: await keyFor(['workflows:write', 'messages:read', 'contacts:read']), body: {} });
    expectScopeMissing(refused, 'messages:write');
    expect(refused.body.error.details.nodeTypes).toEqual(['mail.label', 'mail.mark_read', 'mail.move']);
    expect((await call('POST', path, { key: await keyFor(['workflows:write', 'messages:write', 'contacts:read']), body: {} })).status).toBe(201);
  });
});

describe('accepting an assistant’s proposal through a key', () => {
  it('writes a draft: it needs workflows:write and the proposed graph’s scopes besides assistant:write', async () => {
    const { workflow } = await createWorkflow(owner, { graph: webhookGraph(), publish: false });
    const conversation = await db().assistantConversation.create({ data: { memberId: owner.id, workflowId: workflow.id, title: 'Help' } });
    const propose = () => db().assistantProposal.create({ data: { conversationId: conversation.id, workflowId: workflow.id, baseDraftRevision: workflow.draftRevision, graph: mailToHttp() as object, summary: 'Forward mail' } });
    const accept = async (scopes: Scope[]) => call('POST', `/api/v1/assistant/conversations/${conversation.id}/proposals/${(await propose()).id}/accept`, { key: await keyFor(scopes), body: {} });

    const assistantOnly = await accept(['assistant:write']);
    expectScopeMissing(assistantOnly, 'messages:read');
    expect(assistantOnly.body.error.details).toMatchObject({ missing: ['messages:read', 'workflows:write'], nodeTypes: ['trigger.mail'], reasons: ['draft_write'] });
    expectScopeMissing(await accept(['assistant:write', 'workflows:write']), 'messages:read');
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).draftRevision).toBe(workflow.draftRevision);
    expect((await accept(['assistant:write', 'workflows:write', 'messages:read'])).status).toBe(200);
  });
});

describe('an evaluation run through a key', () => {
  it('needs the scopes of the evaluated version and of the published baseline', async () => {
    const mailOnly = chain(mailTrigger());
    const { workflow } = await createWorkflow(owner, { graph: chain(mailTrigger(), node('move', 'mail.move', { folder: 'archive' })) });
    await db().workflow.update({ where: { id: workflow.id }, data: { graph: mailOnly as object } });
    const path = `/api/v1/workflows/${workflow.id}/eval-runs`;
    expectScopeMissing(await call('POST', path, { key: await keyFor(['workflows:write']), body: { baseline: 'none' } }), 'messages:read');
    // The draft alone needs messages:read; the published baseline moves mail: messages:write.
    const baseline = await call('POST', path, { key: await keyFor(['workflows:write', 'messages:read']), body: {} });
    expectScopeMissing(baseline, 'messages:write');
    expect(baseline.body.error.details.nodeTypes).toEqual(['mail.move']);
    expect(await db().evalRun.count({ where: { workflowId: workflow.id } })).toBe(0);
    expect((await call('POST', path, { key: await keyFor(['workflows:write', 'messages:read']), body: { baseline: 'none' } })).status).toBe(202);
  });

  it('the journal baseline shows the member’s real runs: it needs executions:read', async () => {
    const { workflow } = await createWorkflow(owner, { graph: chain(mailTrigger()), publish: false });
    const path = `/api/v1/workflows/${workflow.id}/eval-runs`;
    const refused = await call('POST', path, { key: await keyFor(['workflows:write', 'messages:read']), body: { baseline: 'journal' } });
    expectScopeMissing(refused, 'executions:read');
    expect(refused.body.error.details.reasons).toEqual(['journal_baseline']);
    expect((await call('POST', path, { key: await keyFor(['workflows:write', 'messages:read', 'executions:read']), body: { baseline: 'journal' } })).status).toBe(202);
  });
});

describe('replaying through a key', () => {
  async function failedMailRun() {
    const { workflow, version } = await createWorkflow(owner, { graph: mailToHttp() });
    const execution = await createExecution(owner, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'failed' });
    return { workflow, execution };
  }

  it('a replay (and its dry run) needs the scopes of the version it runs', async () => {
    const { execution } = await failedMailRun();
    const path = `/api/v1/executions/${execution.id}/replay`;
    const narrow = await keyFor(['executions:write']);
    expectScopeMissing(await call('POST', path, { key: narrow, body: {} }), 'messages:read');
    expectScopeMissing(await call('POST', path, { key: narrow, body: { dryRun: true } }), 'messages:read');
    expect(await db().execution.count({ where: { retryOfExecutionId: execution.id } })).toBe(0);
    expect((await call('POST', path, { key: await keyFor(['executions:write', 'messages:read']), body: {} })).status).toBe(202);
  });

  it('retry-failed is refused as a whole, before any replay starts', async () => {
    const { workflow, execution } = await failedMailRun();
    const path = `/api/v1/workflows/${workflow.id}/executions/retry-failed`;
    expectScopeMissing(await call('POST', path, { key: await keyFor(['executions:write']), body: {} }), 'messages:read');
    expect(await db().execution.count({ where: { retryOfExecutionId: execution.id } })).toBe(0);
    const allowed = await call('POST', path, { key: await keyFor(['executions:write', 'messages:read']), body: {} });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.replayed).toHaveLength(1);
  });
});

describe('GET /api/v1/node-types shows the scopes each type implies', () => {
  it('lists `scopes`, the parameter-implied ones and the workflow parameters', async () => {
    const response = await call('GET', '/api/v1/node-types', { key: await keyFor(['workflows:read']) });
    expect(response.status).toBe(200);
    const byType = new Map((response.body.nodeTypes as { type: string }[]).map((entry) => [entry.type, entry]));
    expect(byType.get('trigger.mail')).toMatchObject({ scopes: ['messages:read'], parameterScopes: [{ parameter: 'senderCard', scopes: ['contacts:read'] }], workflowParams: [] });
    expect(byType.get('mail.send')).toMatchObject({ scopes: ['review:write', 'messages:read'] });
    expect(byType.get('http.request')).toMatchObject({ scopes: [], parameterScopes: [{ parameter: 'credentialId', scopes: ['connections:read'] }] });
    expect(byType.get('flow.sub_workflow')).toMatchObject({ scopes: [], workflowParams: ['workflowId'] });
    expect(byType.get('ai.classify')).toMatchObject({ scopes: ['messages:read'], parameterScopes: [{ parameter: 'writeClassification', scopes: ['messages:write'] }] });
  });
});
