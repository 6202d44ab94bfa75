/**
 * Journey of the assistant in the builder, against a fake vendor (server/testing/ai-fakes, opened to
 * AI base URLs by LLM_ALLOW_HOSTS in playwright.config.ts) scripted to read the workflow, propose a
 * graph with one more step, then answer in Markdown.
 *
 * An administrator adds a connection of its own (a unique label: the suite shares one instance) and
 * routes `assistant` to it. A member publishes a workflow, opens the assistant beside the canvas,
 * asks for a step that notifies them, reads the streamed answer and the proposal's preview, accepts
 * it: the new node is on the canvas and in the saved draft after a reload, without a conflict, and
 * the published version is unchanged. Then: a turn stopped mid-answer, a proposal rejected, and one
 * accepted while an edit is pending in the builder (the edit is saved first, the proposal is refused as
 * outdated).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startFakeVendor, type FakeVendorServer } from '../../server/testing/ai-fakes';
import { draftOf, expectSaved, node, type StoredGraph } from '../fixtures/builder';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { createFromJson, publish } from '../fixtures/workflows';

test.use({ viewport: { width: 1680, height: 1000 } });

let vendor: FakeVendorServer;

test.beforeAll(async () => {
  vendor = await startFakeVendor('openai');
});

test.afterAll(async () => {
  await vendor.close();
});

const webhookNode = { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } };
const notifyNode = { id: 'notify', type: 'notify.owner', version: 1, name: 'Notify me', params: { title: 'A call came in' }, position: { x: 280, y: 0 } };

/** The admin's connection to the fake and the `assistant` routing to it; answers the connection's id. */
async function routeAssistantToFake(admin: APIRequestContext, label: string): Promise<string> {
  const created = await admin.post('/api/v1/admin/llm/connections', {
    data: { provider: 'ai_generic_compatible', label, apiKey: 'sk-e2e-assistant-1234', baseUrl: `${vendor.origin}/v1`, enabledModels: ['fake-assistant'] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const connection = (await created.json()) as { id: string };
  const routed = await admin.put('/api/v1/admin/llm/routing', { data: { routing: { assistant: { connectionId: connection.id, model: 'fake-assistant' } } } });
  expect(routed.status(), await routed.text()).toBe(200);
  return connection.id;
}

/** The vendor's next turn: read the workflow, propose `graph`, then say so. */
function scriptProposal(graph: StoredGraph, summary: string, answer: string) {
  vendor.reply(
    { kind: 'tool', name: 'get_workflow', input: {} },
    { kind: 'tool', name: 'propose_graph', input: { graph, summary } },
    { kind: 'text', text: answer },
  );
}

async function ask(page: Page, question: string) {
  const panel = page.getByTestId('builder-assistant');
  await panel.getByTestId('assistant-input').fill(question);
  await panel.getByTestId('assistant-send').click();
  await expect(panel.getByTestId('assistant-message-user').filter({ hasText: question })).toBeVisible();
}

test('a member asks the assistant for a step, previews the proposal in the builder and accepts it into the draft', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const connectionId = await routeAssistantToFake(page.request, `Assistant fake ${stamp}`);
  const context = await signedInMember(browser, page.request, { email: `assistant-${stamp}@e2e.test`, name: 'Ada Assist', password: 'assistant-password-42' });
  const member = await context.newPage();

  const workflowId = await createFromJson(member, `Calls ${stamp}`, { nodes: [webhookNode], connections: [] });
  await publish(member, 'First version');
  const { workflow: published } = (await (await context.request.get(`/api/v1/workflows/${workflowId}`)).json()) as { workflow: { publishedVersion: { id: string } } };
  const panel = member.getByTestId('builder-assistant');

  await test.step('the assistant opens beside the canvas, attached to this workflow', async () => {
    await expect(member.getByTestId('builder-node')).toHaveCount(1);
    await member.getByTestId('builder-assistant-toggle').click();
    await expect(panel).toBeVisible();
    await expect(member.getByTestId('builder-inspector')).toBeVisible();
    await expect(panel.getByText('No conversation yet.')).toBeVisible();
    await panel.getByTestId('assistant-new').click();
    await expect(panel.getByText('Ask a question to start.')).toBeVisible();
  });

  await test.step('asked for a step, it answers in Markdown with a proposal the member previews', async () => {
    const { graph } = await draftOf(context.request, workflowId);
    scriptProposal(
      { ...graph, nodes: [...graph.nodes, notifyNode], connections: [...graph.connections, { from: 'hook', output: 'main', to: 'notify' }] },
      'Adds a “Notify me” step after the incoming call.',
      'I added a **Notify me** step after the trigger. Review the proposal below.',
    );
    await ask(member, 'add a step that notifies me');
    const answer = panel.getByTestId('assistant-message-assistant').last();
    await expect(answer.locator('strong', { hasText: 'Notify me' })).toBeVisible();
    await expect(answer).toContainText('Used get_workflow');
    await expect(answer).toContainText('Used propose_graph');
    const proposal = panel.getByTestId('assistant-proposal');
    await expect(proposal).toHaveAttribute('data-status', 'pending');
    await expect(proposal).toContainText('Adds a “Notify me” step after the incoming call.');
    await expect(proposal.getByTestId('diff-node-added')).toContainText('Notify me');
    await expect(proposal.getByTestId('diff-connection-added')).toHaveCount(1);
    // The model was offered the assistant's tools and read the workflow first.
    const first = vendor.requests.find((request) => Array.isArray(request.body?.tools));
    expect(first?.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toContain('propose_graph');
  });

  await test.step('accepted, the node is on the canvas and in the saved draft; the published version is unchanged', async () => {
    await panel.getByTestId('assistant-accept').click();
    await expect(panel.getByTestId('assistant-proposal')).toHaveAttribute('data-status', 'accepted');
    await expect(panel.getByTestId('assistant-proposal-accepted')).toBeVisible();
    await expect(node(member, 'notify')).toBeVisible();
    await expect(member.getByTestId('builder-node')).toHaveCount(2);
    await expectSaved(member);
    await expect(member.getByTestId('builder-conflict')).toHaveCount(0);
    const draft = await draftOf(context.request, workflowId);
    expect(draft.graph.nodes.map((n) => n.id)).toEqual(['hook', 'notify']);
    expect(draft.graph.connections).toEqual([expect.objectContaining({ from: 'hook', output: 'main', to: 'notify' })]);

    await member.reload();
    await expect(node(member, 'notify')).toBeVisible();
    await expect(member.getByTestId('workflow-status')).toHaveText('Published');
    const version = await context.request.get(`/api/v1/workflows/${workflowId}/versions/${published.publishedVersion.id}`);
    expect(version.status()).toBe(200);
    const { version: stored } = (await version.json()) as { version: { graph: StoredGraph } };
    expect(stored.graph.nodes.map((n) => n.id)).toEqual(['hook']);
    expect((await draftOf(context.request, workflowId)).draftRevision).toBe(draft.draftRevision);
  });

  await test.step('a turn is stopped mid-answer', async () => {
    await member.getByTestId('builder-assistant-toggle').click();
    await expect(panel.getByTestId('assistant-conversations')).toBeVisible();
    vendor.reply({ kind: 'slow', delayMs: 60_000 });
    await ask(member, 'and what else could it do?');
    await panel.getByTestId('assistant-stop').click();
    await expect(panel.getByTestId('assistant-message-assistant').last()).toContainText('Stopped.');
    await expect(panel.getByTestId('assistant-stop')).toHaveCount(0);
    await expect(panel.getByTestId('assistant-send')).toBeVisible();
  });

  await test.step('a rejected proposal leaves the draft as it is', async () => {
    const before = await draftOf(context.request, workflowId);
    scriptProposal({ ...before.graph, nodes: before.graph.nodes.filter((n) => n.id !== 'notify'), connections: [] }, 'Removes the notification step.', 'Here is a simpler version.');
    await ask(member, 'make it simpler');
    const proposal = panel.getByTestId('assistant-proposal').last();
    await expect(proposal.getByTestId('diff-node-removed')).toContainText('Notify me');
    await proposal.getByTestId('assistant-reject').click();
    await expect(proposal).toHaveAttribute('data-status', 'rejected');
    await expect(node(member, 'notify')).toBeVisible();
    expect((await draftOf(context.request, workflowId)).draftRevision).toBe(before.draftRevision);
  });

  await test.step('accepting while an edit is pending saves the edit first, and the outdated proposal is refused plainly', async () => {
    const { graph } = await draftOf(context.request, workflowId);
    scriptProposal({ ...graph, nodes: graph.nodes.map((n) => (n.id === 'notify' ? { ...n, name: 'Tell me' } : n)) }, 'Renames the notification step.', 'Renamed it.');
    await ask(member, 'rename the notification step');
    const proposal = panel.getByTestId('assistant-proposal').last();
    await expect(proposal).toHaveAttribute('data-status', 'pending');
    await expect(proposal.getByTestId('assistant-proposal-diff')).toContainText('Tell me');
    // An edit the autosave has not sent yet, then Accept at once.
    await member.getByTestId('builder-add-note').click();
    await proposal.getByTestId('assistant-accept').click();
    await expect(proposal.getByTestId('assistant-proposal-error')).toContainText('it is now outdated and was not applied');
    await expect(proposal).toHaveAttribute('data-status', 'stale');
    await expectSaved(member);
    await expect(member.getByTestId('builder-conflict')).toHaveCount(0);
    const draft = await draftOf(context.request, workflowId);
    expect(draft.graph.notes ?? []).toHaveLength(1);
    expect(draft.graph.nodes.find((n) => n.id === 'notify')?.name).toBe('Notify me');
  });

  await context.close();
  // The fake closes after this file: its connection (and the routing to it) goes too, leaving no dead route behind.
  expect((await page.request.delete(`/api/v1/admin/llm/connections/${connectionId}`)).status()).toBe(200);
});
