/**
 * Journey of the approvals inbox: a webhook starts a run whose approval step waits; the approval
 * appears live in Approvals (pending, with its workflow and no trigger mail), is approved from there,
 * and the run goes on to succeed on its approve branch; the approval is then under Approved.
 */
import { expect, test } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signIn } from '../fixtures/session';
import { createFromJson, publish, webhookUrl } from '../fixtures/workflows';

const webhookNode = { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } };

test('an approval asked by a run is approved from the inbox and the run goes on', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const name = `Refunds ${stamp}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  await createFromJson(page, name, {
    nodes: [
      webhookNode,
      { id: 'ask', type: 'approval.request', version: 1, name: 'Ask', params: { title: 'Refund order {{ trigger.orderId }}', details: 'Customer: {{ trigger.customer }}' }, position: { x: 240, y: 0 } },
      { id: 'yes', type: 'data.set', version: 1, name: 'Approved', params: { fields: [{ name: 'branch', value: 'approved' }] }, position: { x: 480, y: -80 } },
      { id: 'no', type: 'data.set', version: 1, name: 'Rejected', params: { fields: [{ name: 'branch', value: 'rejected' }] }, position: { x: 480, y: 80 } },
    ],
    connections: [
      { from: 'hook', output: 'main', to: 'ask' },
      { from: 'ask', output: 'approve', to: 'yes' },
      { from: 'ask', output: 'reject', to: 'no' },
    ],
  });
  await publish(page, 'With an approval');
  const url = await webhookUrl(page);

  await page.getByRole('link', { name: 'Approvals' }).click();
  await expect(page.getByRole('heading', { name: 'Approvals', exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Pending' })).toHaveAttribute('aria-selected', 'true');

  const started = await request.post(url, { data: { orderId: stamp, customer: 'Ada' } });
  expect(started.status()).toBe(202);
  const { executionId } = (await started.json()) as { executionId: string };

  // No reload: the inbox re-reads on the approval's live event.
  const card = page.getByTestId('approval-card').filter({ hasText: `Refund order ${stamp}` });
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(card).toContainText('Customer: Ada');
  await expect(card).toContainText(name);
  await expect(card.getByTestId('approval-trigger')).toHaveText('Not started by an email');
  await expect(card.getByTestId('approval-run-link')).toHaveAttribute('href', `/executions/${executionId}`);

  await card.getByTestId('approval-approve').click();
  await expect(page.getByTestId('approval-decided').first()).toContainText('Approved: the run continues.');

  await page.getByRole('tab', { name: 'Approved' }).click();
  await expect(page).toHaveURL(/\/approvals\?status=approved$/);
  const decided = page.getByTestId('approval-card').filter({ hasText: `Refund order ${stamp}` });
  await expect(decided).toHaveAttribute('data-status', 'approved');
  await expect(decided).toContainText(`By ${e2eAdmin.email}`);

  await decided.getByTestId('approval-run-link').click();
  await expect(page).toHaveURL(new RegExp(`/executions/${executionId}$`));
  await expect(page.getByTestId('execution-detail-status')).toHaveText('Succeeded', { timeout: 30_000 });
});
