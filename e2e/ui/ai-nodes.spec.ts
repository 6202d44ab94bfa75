/**
 * Journey of an AI node run for real, against a real Dovecot and a fake AI vendor (server/testing/ai-fakes
 * on 127.0.0.1, opened to AI base URLs by LLM_ALLOW_HOSTS in playwright.config.ts).
 *
 * The administrator adds a connection of its own to the fake (a unique label and model: the instance is
 * shared with ai-admin.spec.ts, whose connection's fake is closed), routes `classify` to it and prices its
 * model. A member builds mail trigger → ai.classify (invoice / other) → if on the label → notify on the true
 * branch in the builder, tries it in a test run that calls the model for real (the fake says `other`: the
 * false branch), publishes, and a delivered invoice runs it: the fake answers the classification,
 * the run's page shows the classify step's label, confidence, tokens and cost, the if taking `true`, the
 * notification sent, and the webmail shows the message's classification.
 */
import { expect, test } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { startFakeVendor, type FakeVendorServer } from '../../server/testing/ai-fakes';
import { dropType, inspect, node, wire } from '../fixtures/builder';
import { addFakeConnection, removeConnection, routePurpose } from '../fixtures/ai';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { publish } from '../fixtures/workflows';

test.use({ viewport: { width: 1680, height: 1000 } });

const account: MailUser = { user: 'ai-desk@example.test', password: 'ai-desk-imap-password' };

let dovecot: DovecotServer;
let smtp: TestSmtpServer;
let vendor: FakeVendorServer;

test.beforeAll(async () => {
  dovecot = await startDovecot({ users: [account] });
  smtp = await startSmtpServer({ users: [account], tls: 'none' });
  vendor = await startFakeVendor('openai');
});

test.afterAll(async () => {
  await vendor?.close();
  await smtp?.stop();
  await dovecot?.stop();
});

test('an ai.classify step answered by the model drives an if; the run shows label, confidence, usage and cost', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const label = `Classifier ${stamp}`;
  const model = `classify-model-${stamp}`;
  const subject = `Invoice ${stamp} for October`;

  await test.step('the administrator connects the fake vendor, routes classify to it and prices its model', async () => {
    await signIn(page, e2eAdmin.email, e2eAdmin.password);
    await addFakeConnection(page, vendor, { label, model, apiKey: 'sk-e2e-classifier-4321' });
    await routePurpose(page, 'classify', { label, model });

    // USD per million tokens: 1,000 in and 500 out cost 0.01 + 0.01.
    await page.getByTestId('ai-price-add').click();
    const price = page.getByTestId('ai-price-row').last();
    await price.getByRole('combobox', { name: 'Provider' }).selectOption('ai_generic_compatible');
    await price.getByTestId('ai-price-model').fill(model);
    await price.getByTestId('ai-price-input').fill('10');
    await price.getByTestId('ai-price-output').fill('20');
    await page.getByTestId('ai-prices-save').click();
    await expect(page.getByTestId('ai-prices-saved')).toBeVisible();
  });

  const context = await signedInMember(browser, page.request, { email: `ai-nodes-${stamp}@e2e.test`, name: 'Ivy Invoices', password: 'ivy-invoices-password' });
  const member = await context.newPage();
  try {
    const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, account);
    await waitForFirstSync(context.request, mailboxId);

    await test.step('the member builds mail → classify → if → notify in the builder', async () => {
      await member.goto('/workflows');
      await member.getByRole('button', { name: 'New workflow' }).first().click();
      const dialog = member.getByRole('dialog', { name: 'New workflow' });
      await dialog.getByLabel('Name', { exact: true }).fill(`Sort invoices ${stamp}`);
      await dialog.getByRole('button', { name: 'Create workflow' }).click();
      await expect(member).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      await expect(member.getByTestId('builder-canvas')).toBeVisible();
      await dropType(member, 'trigger.mail', 134, 110);
      await dropType(member, 'ai.classify', 394, 110);
      await dropType(member, 'logic.if', 654, 110);
      await dropType(member, 'notify.owner', 654, 330);
      await expect(member.getByTestId('builder-node')).toHaveCount(4);
      await wire(member, 'mail', 'main', 'classify');
      await wire(member, 'classify', 'main', 'if');
      await wire(member, 'if', 'true', 'owner');
      await expect(member.locator('.react-flow__edge')).toHaveCount(3);

      const classify = await inspect(member, 'classify');
      const labels = classify.locator('[data-field-path="labels"]');
      while ((await labels.getByTestId('array-item').count()) < 2) await labels.getByRole('button', { name: 'Add', exact: true }).click();
      const item = (index: number) => labels.getByTestId('array-item').nth(index);
      await item(0).getByRole('textbox', { name: 'Name' }).fill('invoice');
      await item(0).getByRole('textbox', { name: 'Description' }).fill('A bill or an invoice to pay');
      await item(1).getByRole('textbox', { name: 'Name' }).fill('other');
      await item(1).getByRole('textbox', { name: 'Description' }).fill('Anything else');

      const condition = await inspect(member, 'if');
      await condition.getByRole('button', { name: 'Add' }).first().click();
      await condition.getByRole('textbox', { name: 'Left' }).fill('{{ nodes.classify.label }}');
      await condition.getByLabel('Operator').selectOption({ label: 'is equal to' });
      await condition.getByRole('textbox', { name: 'Right' }).fill('invoice');

      const notify = await inspect(member, 'owner');
      await notify.getByRole('textbox', { name: 'Title' }).fill('Invoice: {{ trigger.subject }}');
      await expect(member.getByTestId('builder-save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
      await expect(member.locator('[data-testid="builder-node"]:not([data-issues="0"])')).toHaveCount(0);
    });

    await test.step('a test run that asks for the AI models calls the model for real', async () => {
      vendor.reply({ kind: 'json', value: { label: 'other', confidence: 0.4 }, usage: { input: 100, output: 10 } });
      await member.getByTestId('test-run-call-models').check();
      await member.getByTestId('test-run-start').click();
      await expect(member.getByTestId('test-run-result')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
      const classify = await inspect(member, 'classify');
      await expect(classify.getByTestId('node-result-data')).toContainText('"label": "other"');
      await expect(classify.getByTestId('node-result-data')).toContainText('"simulated": false');
      // `other`: the if takes its false branch, nothing is notified.
      await expect(node(member, 'if')).toHaveAttribute('data-status', 'succeeded');
      await expect(node(member, 'owner')).not.toHaveAttribute('data-status', 'succeeded');
      await publish(member, 'Sort invoices with AI');
    });

    await test.step('a delivered invoice runs it for real: the fake classifies it', async () => {
      vendor.reply({ kind: 'json', value: { label: 'invoice', confidence: 0.92 }, usage: { input: 1_000, output: 500 } });
      await appendMessage({
        server: dovecot,
        ...account,
        raw: await buildRawMessage({
          from: 'Ada Supplier <ada@supplier.example.test>',
          to: account.user,
          subject,
          messageId: `<invoice-${stamp}@supplier.example.test>`,
          text: 'Please find our invoice INV-42 for October attached: 1,200 EUR due in 30 days.',
        }),
      });
      await member.getByTestId('workflow-executions-link').click();
      const row = member.getByTestId('execution-row').filter({ hasText: subject });
      await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 90_000 });
      await row.getByRole('link').first().click();
      await expect(member.getByTestId('execution-detail-status')).toHaveText('Succeeded');
    });

    await test.step('the run’s page shows the classification, its usage and cost, and the branch taken', async () => {
      const request = vendor.requests.filter((item) => item.path.endsWith('/chat/completions')).at(-1);
      expect(request?.headers.authorization).toBe('Bearer sk-e2e-classifier-4321');
      expect(JSON.stringify(request?.body)).toContain('invoice: A bill or an invoice to pay');
      expect(JSON.stringify(request?.body)).toContain('INV-42');

      await member.getByTestId('timeline-step').filter({ hasText: /^\d+Classify/ }).click();
      const step = member.getByTestId('step-detail');
      const data = step.getByTestId('step-data');
      await expect(data).toContainText('"label": "invoice"');
      await expect(data).toContainText('"confidence": 0.92');
      await expect(data).toContainText('"costUsd": 0.02');
      await expect(data).toContainText(`"model": "${model}"`);
      await expect(step.getByTestId('step-effect').first()).toContainText(model);
      const call = step.getByTestId('step-ai-call');
      await expect(call).toContainText(model);
      await expect(call).toContainText('1,000 tokens in, 500 out');
      await expect(call).toContainText('cost $0.02');

      await member.getByTestId('timeline-step').filter({ hasText: /^\d+If/ }).click();
      await expect(member.getByTestId('step-output')).toHaveText('true');
      await expect(member.locator('[data-testid="canvas-node"][data-status="succeeded"]')).toHaveCount(4);
      await member.getByTestId('timeline-step').filter({ hasText: /^\d+Notify/ }).click();
      await expect(member.getByTestId('step-effect')).toContainText(`Invoice: ${subject}`);
    });

    await test.step('the webmail shows the classification on the thread row and the message', async () => {
      await member.goto('/messages');
      const thread = member.getByTestId('thread-row').filter({ hasText: subject });
      await expect(thread.getByTestId('thread-classification')).toHaveText('invoice');
      await thread.click();
      const view = member.getByTestId('thread-view');
      await expect(view.getByTestId('message-classification')).toContainText('invoice');
    });
  } finally {
    await context.close();
    await removeConnection(page.request, label);
  }
});
