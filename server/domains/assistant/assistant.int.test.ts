import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aiProviderFacts } from '../../core/ai/providers';
import { db } from '../../core/db';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';
import { createExecution, createStep } from '../../testing/execution-factories';
import { createMember, type TestMember } from '../../testing/factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow, webhookGraph } from '../../testing/workflow-factories';
import { assistantTestHooks } from './turn';
import { abortTurn, turnSettled } from './turn-registry';

await useTestDatabase();

let alice: TestMember;
let bob: TestMember;
let vendor: FakeVendorServer;
let connectionId: string;
const emitted: { messageId: string; offset: number; delta: string }[] = [];

beforeAll(async () => {
  alice = await createMember({ name: 'Alice' });
  bob = await createMember({ name: 'Bob' });
  vendor = await startFakeVendor('openai');
  assistantTestHooks.net = fakeNet;
  assistantTestHooks.onEmit = (payload) => emitted.push(payload);
});

afterAll(async () => {
  assistantTestHooks.net = undefined;
  assistantTestHooks.onEmit = undefined;
  await vendor.close();
});

beforeEach(async () => {
  vendor.reset();
  emitted.length = 0;
  await db().llmUsage.deleteMany();
  await db().llmBudget.deleteMany();
  await db().llmRouting.deleteMany();
  await db().llmConnection.deleteMany();
  const connection = await db().llmConnection.create({
    data: { provider: 'ai_generic_compatible', label: 'Fake', baseUrl: `${vendor.origin}/v1`, enabledModels: ['fake-large', 'fake-small'], isDefault: true, withoutApiKey: true },
  });
  connectionId = connection.id;
});

afterEach(async () => {
  // No turn outlives its test.
  for (const row of await db().assistantConversation.findMany({ where: { status: 'running' } })) await turnSettled(row.id);
});

const base = '/api/v1/assistant/conversations';

async function open(member: TestMember, body: Record<string, unknown> = {}) {
  const response = await call('POST', base, { cookie: member.cookie, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.conversation as { id: string; workflowId: string | null; status: string };
}

async function read(member: TestMember, id: string) {
  const response = await call('GET', `${base}/${id}`, { cookie: member.cookie });
  expect(response.status).toBe(200);
  return response.body;
}

async function turn(member: TestMember, id: string, content: string) {
  return call('POST', `${base}/${id}/turns`, { cookie: member.cookie, body: { content } });
}

describe('POST /api/v1/assistant/conversations', () => {
  it('opens a conversation (201) with every field', async () => {
    const response = await call('POST', base, { cookie: alice.cookie, body: { title: '  Help  ', model: { provider: 'ai_generic_compatible', model: 'fake-large', connectionId } } });
    expect(response.status).toBe(201);
    expect(response.body.conversation).toEqual({
      id: expect.any(String),
      title: 'Help',
      workflowId: null,
      model: { provider: 'ai_generic_compatible', model: 'fake-large', connectionId },
      lastModel: null,
      status: 'idle',
      usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null },
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('attaches one of the member’s workflows; another member’s or an unknown one is 400 assistant.bad_request', async () => {
    const { workflow } = await createWorkflow(alice);
    expect((await open(alice, { workflowId: workflow.id })).workflowId).toBe(workflow.id);
    for (const workflowId of [workflow.id, 'not-a-uuid', '__proto__']) {
      const response = await call('POST', base, { cookie: bob.cookie, body: { workflowId } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('assistant.bad_request');
    }
  });

  it.each([
    ['an empty title', { title: '' }],
    ['a title of 121 characters', { title: 't'.repeat(121) }],
    ['an empty workflowId', { workflowId: '' }],
    ['a model of 201 characters', { model: { provider: 'ai_generic_compatible', model: 'm'.repeat(201) } }],
    ['an unknown provider', { model: { provider: 'ai_vendor_z', model: 'x' } }],
    ['a connectionId that is not a uuid', { model: { provider: 'ai_generic_compatible', model: 'fake-large', connectionId: 'x' } }],
  ])('answers 400 assistant.bad_request for %s', async (_label, body) => {
    const response = await call('POST', base, { cookie: alice.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('assistant.bad_request');
  });

  it('refuses a model the connection does not enable, or an unknown connection: 400 assistant.model_not_allowed', async () => {
    for (const model of [
      { provider: 'ai_generic_compatible', model: 'other-model', connectionId },
      { provider: 'ai_generic_compatible', model: 'fake-large', connectionId: '00000000-0000-4000-8000-000000000000' },
      { provider: 'ai_vendor_b', model: 'claude-haiku-4-5' },
    ]) {
      const response = await call('POST', base, { cookie: alice.cookie, body: { model } });
      expect(response.status, JSON.stringify(model)).toBe(400);
      expect(response.body.error.code).toBe('assistant.model_not_allowed');
    }
  });

  it('refuses a workflow-attached conversation on a provider without tools: 400 assistant.tools_not_supported', async () => {
    const { workflow } = await createWorkflow(alice);
    const facts = aiProviderFacts.ai_generic_compatible;
    const saved = facts.supportsTools;
    (facts as { supportsTools: boolean }).supportsTools = false;
    try {
      const response = await call('POST', base, { cookie: alice.cookie, body: { workflowId: workflow.id, model: { provider: 'ai_generic_compatible', model: 'fake-large' } } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('assistant.tools_not_supported');
      // Without a workflow no tool is needed.
      expect((await call('POST', base, { cookie: alice.cookie, body: { model: { provider: 'ai_generic_compatible', model: 'fake-large' } } })).status).toBe(201);
    } finally {
      (facts as { supportsTools: boolean }).supportsTools = saved;
    }
  });

  it('replays the same Idempotency-Key with the first answer', async () => {
    const headers = { 'idempotency-key': `open-${Date.now()}` };
    const first = await call('POST', base, { cookie: alice.cookie, body: { title: 'Once' }, headers });
    const again = await call('POST', base, { cookie: alice.cookie, body: { title: 'Once' }, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.conversation.id).toBe(first.body.conversation.id);
    expect(await db().assistantConversation.count({ where: { memberId: alice.id, title: 'Once' } })).toBe(1);
  });

  it('takes prototype names as titles', async () => {
    for (const title of prototypeNames) expect((await open(alice, { title })).id).toBeTruthy();
  });
});

describe('GET /api/v1/assistant/conversations', () => {
  it('lists the member’s own, newest first, filtered by workflowId and bounded by limit', async () => {
    const member = await createMember();
    const { workflow } = await createWorkflow(member);
    const first = await open(member, { title: 'first' });
    const attached = await open(member, { title: 'attached', workflowId: workflow.id });
    await open(bob, { title: 'not mine' });
    const all = await call('GET', base, { cookie: member.cookie });
    expect(all.status).toBe(200);
    expect(all.body.conversations.map((c: { id: string }) => c.id)).toEqual([attached.id, first.id]);
    expect((await call('GET', `${base}?workflowId=${workflow.id}`, { cookie: member.cookie })).body.conversations.map((c: { id: string }) => c.id)).toEqual([attached.id]);
    expect((await call('GET', `${base}?workflowId=__proto__`, { cookie: member.cookie })).body.conversations).toEqual([]);
    expect((await call('GET', `${base}?limit=1`, { cookie: member.cookie })).body.conversations).toHaveLength(1);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', `workflowId=${'w'.repeat(65)}`])('answers 400 assistant.bad_request for %s', async (query) => {
    const response = await call('GET', `${base}?${query}`, { cookie: alice.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('assistant.bad_request');
  });
});

describe('GET /api/v1/assistant/conversations/{id}', () => {
  it('answers 404 assistant.not_found for another member’s conversation or an unknown id', async () => {
    const conversation = await open(alice);
    for (const [member, id] of [
      [bob, conversation.id],
      [alice, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const response = await call('GET', `${base}/${id}`, { cookie: member.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('assistant.not_found');
    }
    for (const path of [`${base}/${conversation.id}/turns`, `${base}/${conversation.id}/cancel`]) {
      expect((await call('POST', path, { cookie: bob.cookie, body: { content: 'hi' } })).status).toBe(404);
    }
  });
});

describe('turns', () => {
  it('streams the answer, persists it as it comes, records usage and goes back to idle', async () => {
    const conversation = await open(alice);
    vendor.reply({ kind: 'text', text: 'Hello **Alice**, here is how workflows work.', usage: { input: 30, output: 12 } });
    const response = await turn(alice, conversation.id, 'How do workflows work?');
    expect(response.status).toBe(202);
    const { messageId } = response.body;
    await turnSettled(conversation.id);
    const after = await read(alice, conversation.id);
    expect(after.conversation.status).toBe('idle');
    expect(after.conversation.title).toBe('How do workflows work?');
    expect(after.conversation.usage).toEqual({ calls: 1, inputTokens: 30, outputTokens: 12, costUsd: null });
    expect(after.conversation.lastModel).toBeTruthy();
    expect(after.messages.map((m: { role: string; status: string }) => [m.role, m.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
    ]);
    expect(after.messages[1]).toMatchObject({ id: messageId, content: 'Hello **Alice**, here is how workflows work.', parts: [{ type: 'text', text: 'Hello **Alice**, here is how workflows work.' }] });
    // The deltas sent to the browsers rebuild the same text at their offsets.
    const rebuilt = emitted.filter((e) => e.messageId === messageId).reduce((text, e) => (expect(e.offset).toBe(text.length), text + e.delta), '');
    expect(rebuilt).toBe('Hello **Alice**, here is how workflows work.');
    const usage = await db().llmUsage.findMany({ where: { conversationId: conversation.id } });
    expect(usage).toMatchObject([{ purpose: 'assistant', memberId: alice.id, inputTokens: 30, outputTokens: 12, connectionId }]);
    // No tools without a workflow.
    expect(vendor.lastRequest?.body.tools).toBeUndefined();
    // The next turn sends the history.
    vendor.reply({ kind: 'text', text: 'Again.' });
    expect((await turn(alice, conversation.id, 'And then?')).status).toBe(202);
    await turnSettled(conversation.id);
    const sent = JSON.stringify(vendor.lastRequest?.body.messages);
    expect(sent).toContain('How do workflows work?');
    expect(sent).toContain('here is how workflows work');
  });

  it('is readable mid-turn (running, message streaming), refuses a second turn (409), and cancels keeping what was written', async () => {
    const { workflow } = await createWorkflow(alice);
    const conversation = await open(alice, { workflowId: workflow.id });
    vendor.reply({ kind: 'tool', name: 'get_workflow', input: {} }, { kind: 'slow', delayMs: 60_000 });
    const response = await turn(alice, conversation.id, 'What does it do?');
    expect(response.status).toBe(202);
    // Wait until the tool step is written (the model is then waiting on the slow reply).
    let mid = await read(alice, conversation.id);
    for (let tries = 0; tries < 200 && !mid.messages[1]?.parts.some((p: { type: string }) => p.type === 'tool_result'); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      mid = await read(alice, conversation.id);
    }
    expect(mid.conversation.status).toBe('running');
    expect(mid.messages[1]).toMatchObject({ role: 'assistant', status: 'streaming' });
    expect(mid.messages[1].parts[1]).toMatchObject({ type: 'tool_result', name: 'get_workflow', result: { draftRevision: 1, graph: { nodes: [{ id: 'start' }] } } });
    const second = await turn(alice, conversation.id, 'Hello?');
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('assistant.turn_running');

    const cancelled = await call('POST', `${base}/${conversation.id}/cancel`, { cookie: alice.cookie });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.conversation.status).toBe('cancelled');
    await turnSettled(conversation.id);
    const after = await read(alice, conversation.id);
    expect(after.conversation.status).toBe('cancelled');
    expect(after.messages[1].status).toBe('cancelled');
    expect(after.messages[1].parts.map((p: { type: string }) => p.type)).toEqual(['tool_call', 'tool_result']);
    // A cancelled conversation takes a new turn.
    vendor.reply({ kind: 'text', text: 'Back.' });
    expect((await turn(alice, conversation.id, 'Go on')).status).toBe(202);
    await turnSettled(conversation.id);
    expect((await read(alice, conversation.id)).conversation.status).toBe('idle');
  });

  it('keeps the text written so far when a turn is stopped mid-stream', async () => {
    const conversation = await open(alice);
    const full = 'A long answer. '.repeat(200);
    vendor.reply({ kind: 'text', text: full });
    // Stop on the first delta, as the cancel route does in this process.
    assistantTestHooks.onDelta = (id) => abortTurn(id);
    try {
      expect((await turn(alice, conversation.id, 'Tell me everything')).status).toBe(202);
      await turnSettled(conversation.id);
    } finally {
      assistantTestHooks.onDelta = undefined;
    }
    const after = await read(alice, conversation.id);
    expect(after.conversation.status).toBe('cancelled');
    expect(after.messages[1].status).toBe('cancelled');
    expect(after.messages[1].content.length).toBeGreaterThan(0);
    expect(full.startsWith(after.messages[1].content)).toBe(true);
    expect(after.messages[1].content.length).toBeLessThan(full.length);
  });

  it('marks the turn failed with the provider’s error code', async () => {
    const conversation = await open(alice);
    vendor.reply({ kind: 'error', status: 500, message: 'boom' });
    expect((await turn(alice, conversation.id, 'Hi')).status).toBe(202);
    await turnSettled(conversation.id);
    const after = await read(alice, conversation.id);
    expect(after.conversation.status).toBe('failed');
    expect(after.messages[1].status).toBe('failed');
    expect(after.messages[1].error.code).toMatch(/^ai\./);
  });

  it('AI response bounded in the web process: an oversized streamed answer fails the turn with ai.response_too_large', async () => {
    const conversation = await open(alice);
    vendor.reply({ kind: 'huge', bytes: 20 * 1024 * 1024 });
    expect((await turn(alice, conversation.id, 'Hi')).status).toBe(202);
    await turnSettled(conversation.id);
    const after = await read(alice, conversation.id);
    expect(after.conversation.status).toBe('failed');
    expect(after.messages[1]).toMatchObject({ status: 'failed', error: { code: 'ai.response_too_large' } });
  });

  it('refuses a turn beyond the budget (402 llm.budget_exceeded), with no provider (409), and bounds the content', async () => {
    const conversation = await open(alice);
    await db().llmBudget.create({ data: { id: 'instance', memberMonthlyUsd: 1 } });
    await db().llmUsage.create({ data: { provider: 'ai_generic_compatible', model: 'fake-large', purpose: 'assistant', memberId: alice.id, costUsd: 2 } });
    const spent = await turn(alice, conversation.id, 'Hi');
    expect(spent.status).toBe(402);
    expect(spent.body.error.code).toBe('llm.budget_exceeded');
    await db().llmConnection.deleteMany();
    const none = await turn(alice, conversation.id, 'Hi');
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('assistant.no_provider');
    for (const content of ['', '   ', 'x'.repeat(20_001)]) {
      const response = await turn(alice, conversation.id, content);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('assistant.bad_request');
    }
    expect((await read(alice, conversation.id)).messages).toEqual([]);
  });

  it('takes prototype names as content', async () => {
    const conversation = await open(alice);
    for (const content of prototypeNames.slice(0, 3)) {
      vendor.reply({ kind: 'text', text: 'ok' });
      expect((await turn(alice, conversation.id, content)).status).toBe(202);
      await turnSettled(conversation.id);
    }
    expect((await read(alice, conversation.id)).messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual(prototypeNames.slice(0, 3));
  });
});

const proposedGraph = () => ({
  ...webhookGraph(),
  nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } }],
  notes: [{ id: 'note-1', text: 'Renamed by the assistant' }],
});

async function proposalFlow(member: TestMember) {
  const { workflow, version } = await createWorkflow(member);
  const conversation = await open(member, { workflowId: workflow.id });
  await createExecution(member, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'failed' }).then((execution) =>
    createStep(execution.id, { nodeId: 'start', nodeType: 'trigger.webhook', status: 'failed', error: { code: 'boom', message: 'It broke.' } }),
  );
  vendor.reply(
    { kind: 'tool', name: 'get_workflow', input: {} },
    { kind: 'tool', name: 'recent_executions', input: {} },
    { kind: 'tool', name: 'list_node_types', input: { category: 'trigger' } },
    { kind: 'tool', name: 'propose_graph', input: { graph: { nodes: [{ id: 'x', type: 'nope.nope', version: 1, name: 'X' }], connections: [] }, summary: 'Broken' } },
    { kind: 'tool', name: 'propose_graph', input: { graph: proposedGraph(), summary: 'Renames the trigger.' } },
    { kind: 'text', text: 'I proposed renaming the trigger.' },
  );
  expect((await turn(member, conversation.id, 'Rename the trigger')).status).toBe(202);
  await turnSettled(conversation.id);
  const after = await read(member, conversation.id);
  return { workflow, version: version!, conversation, after };
}

describe('tools and proposals', () => {
  it('runs the tool loop: reads the workflow, executions and catalogue, fixes an invalid proposal, stores the valid one', async () => {
    const { workflow, after } = await proposalFlow(alice);
    expect(after.conversation.status).toBe('idle');
    expect(after.conversation.usage.calls).toBe(6);
    const message = after.messages[1];
    expect(message.status).toBe('done');
    expect(message.content).toBe('I proposed renaming the trigger.');
    const results = message.parts.filter((p: { type: string }) => p.type === 'tool_result').map((p: { name: string; result: unknown }) => [p.name, p.result]);
    expect(results[0]).toEqual(['get_workflow', expect.objectContaining({ draftRevision: 1 })]);
    expect(results[1][1].executions[0]).toMatchObject({ status: 'failed', failedStep: { nodeId: 'start', error: 'boom: It broke.' } });
    expect(results[2][1].nodeTypes.every((t: { category: string }) => t.category === 'trigger')).toBe(true);
    expect(results[2][1].nodeTypes[0].paramsSchema).toBeDefined();
    expect(results[3][1]).toMatchObject({ ok: false, issues: expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('nodes') })]) });
    expect(results[4][1]).toMatchObject({ ok: true, proposalId: expect.any(String) });
    expect(after.proposals).toEqual([
      expect.objectContaining({ id: results[4][1].proposalId, workflowId: workflow.id, baseDraftRevision: 1, status: 'pending', summary: 'Renames the trigger.', decidedAt: null, messageId: message.id }),
    ]);
    expect(after.proposals[0].graph.nodes[0].name).toBe('Incoming call');
    // The tools were offered, and the results went back to the model.
    expect(vendor.requests[0].body.tools.map((t: { function: { name: string } }) => t.function.name).sort()).toEqual(['get_workflow', 'list_node_types', 'propose_graph', 'recent_executions']);
  });

  it('accept writes the draft (published version unchanged); a second decision is 409 assistant.proposal_decided', async () => {
    const { workflow, version, conversation, after } = await proposalFlow(alice);
    const proposal = after.proposals[0];
    const accepted = await call('POST', `${base}/${conversation.id}/proposals/${proposal.id}/accept`, { cookie: alice.cookie });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ proposal: { id: proposal.id, status: 'accepted', decidedAt: expect.any(String) }, draftRevision: 2 });
    const stored = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect((stored.graph as { nodes: { name: string }[] }).nodes[0].name).toBe('Incoming call');
    expect(stored.publishedVersionId).toBe(version.id);
    const published = await db().workflowVersion.findUniqueOrThrow({ where: { id: version.id } });
    expect((published.graph as { nodes: { name: string }[] }).nodes[0].name).toBe('Webhook');
    for (const action of ['accept', 'reject']) {
      const again = await call('POST', `${base}/${conversation.id}/proposals/${proposal.id}/${action}`, { cookie: alice.cookie });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('assistant.proposal_decided');
    }
  });

  it('accept on a draft changed since: 409 workflow.revision_conflict and the proposal goes stale', async () => {
    const { workflow, conversation, after } = await proposalFlow(alice);
    await db().workflow.update({ where: { id: workflow.id }, data: { draftRevision: { increment: 1 } } });
    const response = await call('POST', `${base}/${conversation.id}/proposals/${after.proposals[0].id}/accept`, { cookie: alice.cookie });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('workflow.revision_conflict');
    expect((await read(alice, conversation.id)).proposals[0].status).toBe('stale');
    const stored = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect((stored.graph as { nodes: { name: string }[] }).nodes[0].name).toBe('Webhook');
  });

  it('reject leaves the workflow unchanged; another member gets 404', async () => {
    const { workflow, conversation, after } = await proposalFlow(alice);
    const proposalId = after.proposals[0].id;
    for (const action of ['accept', 'reject']) {
      const response = await call('POST', `${base}/${conversation.id}/proposals/${proposalId}/${action}`, { cookie: bob.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('assistant.not_found');
    }
    const unknown = await call('POST', `${base}/${conversation.id}/proposals/00000000-0000-4000-8000-000000000000/reject`, { cookie: alice.cookie });
    expect(unknown.status).toBe(404);
    const rejected = await call('POST', `${base}/${conversation.id}/proposals/${proposalId}/reject`, { cookie: alice.cookie });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ proposal: { status: 'rejected' }, draftRevision: null });
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).draftRevision).toBe(1);
  });
});

describe('secrets and the model', () => {
  const secrets = ['url-secret-111', 'header-secret-222', 'query-secret-333', 'body-secret-444'];
  const callNode = {
    id: 'call',
    type: 'http.request',
    version: 1,
    name: 'Call the API',
    position: { x: 200, y: 0 },
    params: {
      url: 'https://api.example.com/items?api_key=url-secret-111&page=2',
      headers: [
        { name: 'X-Trace', value: 'trace-visible' },
        { name: 'Authorization', value: 'Bearer header-secret-222' },
      ],
      query: [{ name: 'token', value: 'query-secret-333' }],
      body: { type: 'json', json: { password: 'body-secret-444', note: 'hello' } },
    },
  };
  const graphWithSecrets = () => ({ ...webhookGraph(), nodes: [...(webhookGraph().nodes ?? []), callNode], connections: [{ from: 'start', output: 'main', to: 'call' }] });

  it('assistant masks secrets: get_workflow and recent_executions send the model no inline secret, and a proposal keeps the real ones', async () => {
    const { workflow, version } = await createWorkflow(alice, { graph: graphWithSecrets() as never });
    const failed = await createExecution(alice, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'failed' });
    await createStep(failed.id, { nodeId: 'call', nodeType: 'http.request', status: 'failed', error: { code: 'http_status', message: 'Refused Bearer header-secret-222' } });
    const conversation = await open(alice, { workflowId: workflow.id });
    vendor.reply({ kind: 'tool', name: 'get_workflow', input: {} }, { kind: 'tool', name: 'recent_executions', input: {} }, { kind: 'text', text: 'Read it.' });
    expect((await turn(alice, conversation.id, 'What does my workflow do?')).status).toBe(202);
    await turnSettled(conversation.id);
    const sentToModel = JSON.stringify(vendor.requests.map((request) => request.body));
    for (const secret of secrets) expect(sentToModel).not.toContain(secret);
    expect(sentToModel).toContain('trace-visible');

    // The model proposes the graph it saw (secrets masked), with one node renamed.
    const seen = (await read(alice, conversation.id)).messages[1].parts.find((part: { type: string; name: string }) => part.type === 'tool_result' && part.name === 'get_workflow').result;
    expect(seen.graph.nodes[1].params.headers[1]).toEqual({ name: 'Authorization', value: '••••' });
    const proposed = structuredClone(seen.graph);
    proposed.nodes[1].name = 'Call the API, renamed';
    proposed.nodes[1].params.headers.reverse();
    vendor.reply({ kind: 'tool', name: 'get_workflow', input: {} }, { kind: 'tool', name: 'propose_graph', input: { graph: proposed, summary: 'Renames the call.' } }, { kind: 'text', text: 'Proposed.' });
    expect((await turn(alice, conversation.id, 'Rename the call')).status).toBe(202);
    await turnSettled(conversation.id);
    const proposal = (await read(alice, conversation.id)).proposals[0];
    expect(proposal).toBeDefined();
    const accepted = await call('POST', `${base}/${conversation.id}/proposals/${proposal.id}/accept`, { cookie: alice.cookie });
    expect(accepted.status).toBe(200);
    const stored = (await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).graph as { nodes: { name: string; params: Record<string, unknown> }[] };
    expect(stored.nodes[1].name).toBe('Call the API, renamed');
    expect(stored.nodes[1].params).toEqual({ ...callNode.params, headers: [...callNode.params.headers].reverse() });
    for (const secret of secrets) expect(JSON.stringify(vendor.requests.map((request) => request.body))).not.toContain(secret);
  });

  it('a proposal putting a masked value where the draft has none is refused, naming the place', async () => {
    const { workflow } = await createWorkflow(alice, { graph: graphWithSecrets() as never });
    const conversation = await open(alice, { workflowId: workflow.id });
    const moved = structuredClone(graphWithSecrets()) as { nodes: { params: Record<string, unknown> }[] };
    moved.nodes[1].params.query = [{ name: 'other', value: '••••' }];
    vendor.reply({ kind: 'tool', name: 'propose_graph', input: { graph: moved, summary: 'Moves a secret.' } }, { kind: 'text', text: 'Sorry.' });
    expect((await turn(alice, conversation.id, 'Move it')).status).toBe(202);
    await turnSettled(conversation.id);
    const after = await read(alice, conversation.id);
    const result = after.messages[1].parts.find((part: { type: string }) => part.type === 'tool_result').result;
    expect(result).toMatchObject({ ok: false, issues: [{ path: 'nodes.1.params.query.0.value', message: expect.stringContaining('masked') }] });
    expect(after.proposals).toEqual([]);
  });
});
