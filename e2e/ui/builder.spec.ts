/**
 * Journey of the visual builder, against a real Dovecot: nothing is written as JSON.
 *
 * A member builds a five-node workflow on an empty canvas by drag and drop only (incoming mail → if →
 * set fields → draft a reply → notify me), configures each node through its generated form (an
 * expression in the condition and in the fields), picks a mirrored mail as test message, runs a
 * test and reads each node's output in the inspector (the draft listed as a simulated effect),
 * publishes, delivers a matching mail to the IMAP server and sees the real run; then tries the
 * workflow on the mirrored mail (an evaluation run) and reads its summary.
 */
import { expect, test } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { dropType, inspect, node, wire } from '../fixtures/builder';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { publish } from '../fixtures/workflows';

test.use({ viewport: { width: 1680, height: 1000 } });

const account: MailUser = { user: 'builder-desk@example.test', password: 'builder-desk-imap-password' };

let dovecot: DovecotServer;
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  dovecot = await startDovecot({ users: [account] });
  smtp = await startSmtpServer({ users: [account], tls: 'none' });
});

test.afterAll(async () => {
  await smtp?.stop();
  await dovecot?.stop();
});

async function deliver(subject: string, messageId: string) {
  await appendMessage({
    server: dovecot,
    ...account,
    raw: await buildRawMessage({ from: 'Ada Supplier <ada@supplier.example.test>', to: account.user, subject, messageId, text: 'Please find the invoice attached.' }),
  });
}

test('a member builds, tests, publishes and evaluates a workflow without writing JSON', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const seedSubject = `Invoice ${stamp}-1`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `builder-${stamp}@e2e.test`, name: 'Bea Builder', password: 'builder-password-42' });
  const member = await context.newPage();
  const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, account);
  await waitForFirstSync(context.request, mailboxId);
  await deliver(seedSubject, `<seed-${stamp}@supplier.example.test>`);
  await waitForMirrored(context.request, mailboxId, seedSubject);

  await test.step('an empty workflow is built on the canvas by drag and drop', async () => {
    await member.goto('/workflows');
    await member.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = member.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name', { exact: true }).fill(`Invoices ${stamp}`);
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await expect(member).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(member.getByTestId('builder-canvas')).toBeVisible();
    await dropType(member, 'trigger.mail', 134, 110);
    await dropType(member, 'logic.if', 394, 110);
    await dropType(member, 'data.set', 654, 110);
    await dropType(member, 'mail.draft', 394, 330);
    await dropType(member, 'notify.owner', 654, 330);
    await expect(member.getByTestId('builder-node')).toHaveCount(5);
    await wire(member, 'mail', 'main', 'if');
    await wire(member, 'if', 'true', 'set');
    await wire(member, 'set', 'main', 'draft');
    await wire(member, 'draft', 'main', 'owner');
    await expect(member.locator('.react-flow__edge')).toHaveCount(4);
    // Unconfigured nodes never block saving (issue 19 §6): the draft saves, and the nodes say what is left to fix.
    await expect(member.getByTestId('builder-save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
    await expect(member.getByTestId('builder-save-status')).toContainText('to fix before publishing');
    await expect(node(member, 'if')).not.toHaveAttribute('data-issues', '0');
  });

  await test.step('each node is configured through its form', async () => {
    const condition = await inspect(member, 'if');
    await condition.getByRole('button', { name: 'Add' }).first().click();
    await condition.getByRole('textbox', { name: 'Left' }).fill('{{ trigger.subject }}');
    await condition.getByLabel('Operator').selectOption('contains');
    await condition.getByRole('textbox', { name: 'Right' }).fill('Invoice');

    const fields = await inspect(member, 'set');
    await fields.getByRole('button', { name: 'Add' }).first().click();
    await fields.getByRole('textbox', { name: 'Name' }).first().fill('supplier');
    await fields.getByRole('textbox', { name: 'Value' }).fill('{{ trigger.from.email }}');

    const draft = await inspect(member, 'draft');
    await draft.getByRole('button', { name: 'Set' }).first().click();
    await draft.getByRole('textbox', { name: 'Body text' }).fill('Thank you {{ nodes.set.supplier }}, we have your invoice.');

    const notify = await inspect(member, 'owner');
    await notify.getByRole('textbox', { name: 'Title' }).fill('Invoice from {{ trigger.from.email }}');
    await expect(member.getByTestId('builder-save-status')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
    await expect(member.locator('[data-testid="builder-node"]:not([data-issues="0"])')).toHaveCount(0);
  });

  await test.step('a mirrored mail is pinned as test message; the test run shows each node’s output', async () => {
    await member.getByTestId('test-messages-pick').click();
    const dialog = member.getByRole('dialog', { name: 'Test messages' });
    await dialog.getByTestId('test-message-option').filter({ hasText: seedSubject }).locator('input').check();
    await dialog.getByTestId('test-messages-save').click();
    await expect(dialog).toBeHidden();
    await member.getByTestId('test-message-select').selectOption({ label: seedSubject });
    await member.getByTestId('test-run-start').click();
    await expect(member.getByTestId('test-run-result')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
    for (const id of ['mail', 'if', 'set', 'draft', 'owner']) await expect(node(member, id)).toHaveAttribute('data-status', 'succeeded');
    const fields = await inspect(member, 'set');
    await expect(fields.getByTestId('node-result-data')).toContainText('"supplier": "ada@supplier.example.test"');
    const draft = await inspect(member, 'draft');
    await expect(draft.getByTestId('node-result-effects')).toContainText('simulated');
    // The expression editor previews against the run's data.
    await expect(draft.getByTestId('expression-preview').first()).toContainText('ada@supplier.example.test');
  });

  await test.step('published, a matching delivered mail runs it for real', async () => {
    await publish(member, 'Built in the editor');
    const real = `Invoice ${stamp}-2`;
    await deliver(real, `<real-${stamp}@supplier.example.test>`);
    await member.getByTestId('workflow-executions-link').click();
    const row = member.getByTestId('execution-row').filter({ hasText: real });
    await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 90_000 });
    await member.goBack();
  });

  await test.step('an evaluation run tries the workflow on the mirrored mail', async () => {
    await member.getByRole('tab', { name: 'Try on my mail' }).click();
    await member.getByTestId('eval-start').click();
    const summary = member.getByTestId('eval-summary');
    await expect(summary).toContainText('Would trigger on 2 of 2', { timeout: 90_000 });
    await expect(member.getByTestId('eval-case-row')).toHaveCount(2);
  });
  await context.close();
});
