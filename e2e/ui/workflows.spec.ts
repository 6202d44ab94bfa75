/**
 * Journeys of the workflow engine's pages:
 *  (a) a workflow created from JSON (its invalid first draft refused with the path), published,
 *      its webhook URL copied; a program POSTs to it and the run is seen live to succeed;
 *  (b) a workflow whose HTTP step calls a local sink answering 500 fails: an incident appears and the
 *      notification bell shows it;
 *  (c) the sink fixed, the run is replayed from the failed step (after a dry-run preview of the
 *      effects that would happen again) and the new run succeeds.
 * The sink listens on 127.0.0.1: the instance allows it with HTTP_NODE_ALLOW_HOSTS (playwright.config.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { createFromJson, publish, webhookUrl } from '../fixtures/workflows';

const webhookNode = { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } };

/** A local HTTP sink whose answer status the test sets; it counts the calls it receives. */
async function startSink(): Promise<{ url: string; setStatus: (status: number) => void; calls: () => number; close: () => Promise<void> }> {
  let status = 500;
  let calls = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status < 400 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    setStatus: (next) => {
      status = next;
    },
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('a webhook call starts a run that is seen live to succeed', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const name = `Webhook intake ${stamp}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);

  await test.step('a graph the server refuses shows its issue at its path', async () => {
    await page.getByRole('link', { name: 'Workflows' }).click();
    await expect(page.getByRole('heading', { name: 'Workflows', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Graph (JSON)').fill('{"nodes": [');
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await expect(dialog.getByText(/This is not valid JSON/)).toBeVisible();
    await dialog.getByLabel('Graph (JSON)').fill(JSON.stringify({ nodes: [{ ...webhookNode, type: 'no.such_type' }], connections: [] }));
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await expect(dialog.getByTestId('graph-issue').first()).toContainText('nodes');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  const workflowId = await createFromJson(page, name, { nodes: [webhookNode], connections: [] });
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(page.getByTestId('workflow-status')).toHaveText('Draft');
  await expect(page.getByTestId('builder-node')).toHaveCount(1);
  await publish(page, 'First version');
  await expect(page.getByTestId('workflow-version')).toHaveText('v1');
  const url = await webhookUrl(page);
  // Asking again answers the same URL: a live sender is never broken by copying it again.
  const again = await page.request.post(`/api/v1/workflows/${workflowId}/webhook`, { data: {} });
  expect((await again.json()).url).toBe(url);

  await page.getByTestId('workflow-executions-link').click();
  await expect(page).toHaveURL(new RegExp(`/executions\\?workflowId=${workflowId}$`));
  await expect(page.getByTestId('list-empty')).toBeVisible();

  const started = await request.post(url, { data: { orderId: 42, customer: 'Ada' } });
  expect(started.status()).toBe(202);
  const { executionId } = (await started.json()) as { executionId: string };

  // No reload: the list refreshes on the run's live status events.
  const row = page.getByTestId('execution-row');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(row).toContainText(name);
  await expect(row).toContainText('Webhook call');

  await row.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/executions/${executionId}$`));
  await expect(page.getByTestId('execution-detail-status')).toHaveText('Succeeded');
  await expect(page.getByTestId('canvas-node')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('timeline-step')).toHaveCount(1);
  await page.getByText('Trigger data').click();
  await expect(page.getByTestId('execution-trigger-data')).toContainText('"orderId": 42');
});

test('a failing HTTP step makes an incident and a notification; replayed from the failed step after the fix, it succeeds', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const name = `Forward to CRM ${stamp}`;
  const sink = await startSink();
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  // A member of their own, so the bell counts this journey's notification only.
  const context = await signedInMember(browser, page.request, { email: `wf-${stamp}@e2e.test`, name: 'Flo Workflow', password: 'flo-workflow-password' });
  const member = await context.newPage();

  try {
    const graph = {
      nodes: [
        webhookNode,
        {
          id: 'forward',
          type: 'http.request',
          version: 1,
          name: 'Forward',
          params: { method: 'POST', url: sink.url, body: { type: 'json', json: { forwarded: true } } },
          // One attempt: the sink's 500 fails the run at once instead of after the built-in retries.
          retry: { maxAttempts: 1, delayMs: 1_000 },
          position: { x: 300, y: 0 },
        },
      ],
      connections: [{ from: 'hook', output: 'main', to: 'forward' }],
    };
    await member.goto('/');
    const workflowId = await createFromJson(member, name, graph);
    await publish(member, 'Forward orders');
    await expect(member.getByTestId('workflow-version')).toHaveText('v1');
    const url = await webhookUrl(member);

    await member.goto('/executions/incidents');
    await expect(member.getByTestId('list-empty')).toBeVisible();
    const started = await member.request.post(url, { data: { orderId: 7 } });
    expect(started.status()).toBe(202);
    const { executionId } = (await started.json()) as { executionId: string };

    await test.step('the failure shows as an incident and in the bell, live', async () => {
      const incident = member.getByTestId('incident-row');
      await expect(incident).toHaveCount(1, { timeout: 30_000 });
      await expect(incident).toContainText(name);
      await expect(incident).toContainText('Forward');
      // The shell has a bell in the side bar and one in the small-screen header: the visible one.
      const bell = member.getByTestId('notification-bell').filter({ visible: true });
      await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
      await expect(bell.getByTestId('notification-count')).toHaveText('1');
      await bell.click();
      const item = member.getByTestId('notification-item').first();
      await expect(item).toContainText(`Workflow “${name}” failed`);
      await member.keyboard.press('Escape');
      expect(sink.calls()).toBe(1);
    });

    await test.step('the failed run shows its error, its failed step and its attempts', async () => {
      await member.getByTestId('incident-row').getByRole('link', { name: 'Open the run' }).click();
      await expect(member).toHaveURL(new RegExp(`/executions/${executionId}$`));
      await expect(member.getByTestId('execution-detail-status')).toHaveText('Failed');
      await expect(member.getByTestId('execution-error')).toBeVisible();
      await expect(member.locator('[data-testid="canvas-node"][data-status="failed"]')).toContainText('Forward');
      await expect(member.locator('[data-testid="canvas-node"][data-status="succeeded"]')).toContainText('Incoming call');
      await expect(member.getByTestId('step-detail')).toContainText('Forward');
      await expect(member.getByTestId('step-attempt')).toHaveCount(1);
    });

    await test.step('fixed, the run is replayed from the failed step and succeeds', async () => {
      sink.setStatus(200);
      await member.getByRole('button', { name: 'Replay' }).click();
      const dialog = member.getByRole('dialog', { name: 'Replay this run' });
      await expect(dialog.getByLabel('The failed step')).toBeChecked();
      await dialog.getByRole('button', { name: 'Preview effects' }).click();
      await expect(dialog.getByTestId('replay-effects')).toBeVisible();
      expect(sink.calls()).toBe(1);
      await dialog.getByRole('button', { name: 'Replay', exact: true }).click();
      await expect(member).not.toHaveURL(new RegExp(`/executions/${executionId}$`));
      await expect(member.getByTestId('execution-detail-status')).toHaveText('Succeeded', { timeout: 30_000 });
      await expect(member.getByTestId('replay-of-link')).toHaveAttribute('href', `/executions/${executionId}`);
      await expect(member.locator('[data-testid="canvas-node"][data-status="succeeded"]')).toHaveCount(2);
      expect(sink.calls()).toBe(2);
    });

    await test.step('the replay that succeeded resolved the incident: nothing is left to acknowledge', async () => {
      const replayUrl = new URL(member.url()).pathname;
      await member.goto('/executions/incidents');
      await expect(member.getByTestId('incident-resolved')).toContainText('Resolved by a replay');
      await expect(member.getByTestId('incident-resolved').getByRole('link')).toHaveAttribute('href', replayUrl);
      await expect(member.getByRole('button', { name: `Acknowledge the incident of ${name}` })).toHaveCount(0);
      await member.getByLabel('Unacknowledged only').check();
      await expect(member.getByTestId('list-empty')).toBeVisible();
    });

    const listed = await member.request.get(`/api/v1/executions?workflowId=${workflowId}`);
    expect((await listed.json()).executions.map((run: { status: string }) => run.status).sort()).toEqual(['failed', 'succeeded']);
  } finally {
    await context.close();
    await sink.close();
  }
});
