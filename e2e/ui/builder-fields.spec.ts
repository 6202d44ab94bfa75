/**
 * Journeys of the builder a non-developer can use (issue 19 §6), against a real Dovecot.
 *
 * 1. A member builds incoming mail → condition → label on the canvas: the condition's left field
 *    completes the mail trigger's fields without any test run, the operator reads as words, the right
 *    value is lowercase; an incomplete node never blocks saving. A test run on a mail whose subject is
 *    in capitals takes the true branch (text comparisons ignore case by default in the newest version).
 * 2. The builder in dark and in French: the theme and the language are switched in the user menu; the
 *    canvas follows the theme (minimap included) and a node's parameter help is in French. Screenshots
 *    are attached and written to the test's output folder (copies kept in docs/screenshots/).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { draftOf, dropType, expectSaved, inspect, node, wire } from '../fixtures/builder';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

// The machine is shared and busy: every wait here is generous (never a timed assertion).
const expect = baseExpect.configure({ timeout: 30_000 });

const viewport = { width: 1680, height: 1000 };
test.use({ viewport });

const account: MailUser = { user: 'fields-desk@example.test', password: 'fields-desk-imap-password' };

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

async function createWorkflow(request: APIRequestContext, name: string, graph: unknown): Promise<string> {
  const created = await request.post('/api/v1/workflows', { data: { name, graph } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { workflow: { id: string } }).workflow.id;
}

/** Opens the account menu (in the sidebar) and picks an entry of one of its radio groups. */
async function pickInUserMenu(page: Page, memberName: string, entry: string) {
  await page.getByRole('button', { name: new RegExp(`${memberName}`) }).first().click();
  await page.getByRole('menuitemradio', { name: entry, exact: true }).click();
  await expect(page.getByRole('menu')).toBeHidden();
}

test('a workflow built with field completion and a case-insensitive condition', async ({ page, browser }) => {
  // A mailbox to sync and a mail to mirror before the builder: as long as builder.spec.ts allows.
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const capitals = `INVOICE 42 ${stamp}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `fields-${stamp}@e2e.test`, name: 'Fiona Fields', password: 'fields-password-42' });
  const api = context.request;
  const member = await context.newPage();
  await member.setViewportSize(viewport);
  const mailboxId = await connectTestMailbox(api, { dovecot, smtp }, account);
  await waitForFirstSync(api, mailboxId);
  await deliver(capitals, `<capitals-${stamp}@supplier.example.test>`);
  await waitForMirrored(api, mailboxId, capitals);
  let workflowId = '';

  await test.step('mail trigger → condition → label, dropped and wired; the incomplete draft still saves', async () => {
    await member.goto('/workflows');
    await member.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = member.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name', { exact: true }).fill(`Invoices in capitals ${stamp}`);
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await expect(member).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    workflowId = member.url().split('/').at(-1)!;
    await expect(member.getByTestId('builder-canvas')).toBeVisible();
    // One at a time, each checked on the canvas: on a busy machine the palette can still move under a drag.
    await dropType(member, 'trigger.mail', 134, 110);
    await expect(node(member, 'mail')).toBeVisible();
    await dropType(member, 'logic.if', 394, 110);
    await expect(node(member, 'if')).toBeVisible();
    await expect(member.getByTestId('builder-save-status')).toHaveAttribute('data-state', 'saved');
    // The palette's search leaves only a few entries, the label first.
    await member.getByTestId('palette-search').fill('Label message');
    await expect(member.getByTestId('palette-item').first()).toHaveAttribute('data-node-type', 'mail.label');
    await dropType(member, 'mail.label', 654, 110);
    await expect(node(member, 'label')).toBeVisible();
    await member.getByTestId('palette-search').fill('');
    await expect(member.getByTestId('builder-node')).toHaveCount(3);
    await wire(member, 'mail', 'main', 'if');
    await wire(member, 'if', 'true', 'label');
    await expect(member.locator('.react-flow__edge')).toHaveCount(2);
    // The condition and the label have nothing filled: the draft saves anyway and says what is left to fix.
    const status = member.getByTestId('builder-save-status');
    await expect(status).toHaveAttribute('data-state', 'saved', { timeout: 30_000 });
    await expect(status).toContainText(/Saved, with \d+ problems? to fix before publishing/);
    await expect(node(member, 'if')).not.toHaveAttribute('data-issues', '0');
    await expect(node(member, 'label')).not.toHaveAttribute('data-issues', '0');
    const draft = await draftOf(api, workflowId);
    expect(draft.graph.nodes.map((item) => item.type).sort()).toEqual(['logic.if', 'mail.label', 'trigger.mail']);
    // The palette drops the newest version of the condition: text comparisons ignore case by default.
    const stored = (await (await api.get(`/api/v1/workflows/${workflowId}`)).json()) as { workflow: { graph: { nodes: { id: string; version: number }[] } } };
    expect(stored.workflow.graph.nodes.find((item) => item.id === 'if')?.version).toBe(2);
  });

  await test.step('the condition’s left field completes the mail trigger’s fields before any test run', async () => {
    const condition = await inspect(member, 'if');
    await expect(member.getByTestId('test-run-result')).toHaveCount(0);
    await condition.getByRole('button', { name: 'Add' }).first().click();
    const left = condition.getByRole('textbox', { name: 'Left' });
    await left.click();
    await member.keyboard.type('{{ trigger.');
    const completions = member.locator('.cm-tooltip-autocomplete');
    await expect(completions).toBeVisible({ timeout: 15_000 });
    await expect(completions.getByRole('option', { name: /^subject/ })).toBeVisible();
    await expect(completions.getByRole('option', { name: /^from/ })).toBeVisible();
    await completions.getByRole('option', { name: /^subject/ }).click();
    await expect(left).toContainText('{{ trigger.subject');

    // The operator reads as words; the stored value stays the engine's.
    const operator = condition.getByLabel('Operator');
    await expect(operator.locator('option', { hasText: 'is not equal to' })).toHaveCount(1);
    await expect(operator.locator('option', { hasText: 'matches the pattern' })).toHaveCount(1);
    await expect(operator.locator('option', { hasText: 'not_equals' })).toHaveCount(0);
    await operator.selectOption({ label: 'contains' });
    await expect(operator.locator('option:checked')).toHaveText('contains');
    await condition.getByRole('textbox', { name: 'Right' }).fill('invoice');
    // The case option explains its default: off, “Invoice” equals “INVOICE”.
    await expect(condition).toContainText('off (the default): “Invoice” equals “INVOICE”');

    await expect
      .poll(async () => (await draftOf(api, workflowId)).graph.nodes.find((item) => item.id === 'if')?.params, { timeout: 30_000 })
      .toMatchObject({ conditions: [{ left: expect.stringMatching(/^\{\{ trigger\.subject ?\}\}$/), operator: 'contains', right: 'invoice' }] });
    await expect(node(member, 'if')).toHaveAttribute('data-issues', '0', { timeout: 15_000 });
  });

  await test.step('the label node is filled; the draft saves without problems', async () => {
    const label = await inspect(member, 'label');
    await label.getByRole('button', { name: 'Add' }).first().click();
    await label.locator('[data-field-path^="add"]').first().getByRole('textbox').first().fill('Invoices');
    await expect(member.getByTestId('builder-save-status')).toHaveAttribute('data-state', 'saved', { timeout: 30_000 });
    await expect(member.getByTestId('builder-save-status')).toHaveText('All changes saved');
    await expect(member.locator('[data-testid="builder-node"]:not([data-issues="0"])')).toHaveCount(0);
    await expectSaved(member);
  });

  await test.step('a test run on “INVOICE 42” takes the true branch', async () => {
    await member.getByTestId('test-messages-pick').click();
    const dialog = member.getByRole('dialog', { name: 'Test messages' });
    await dialog.getByTestId('test-message-option').filter({ hasText: capitals }).locator('input').check();
    await dialog.getByTestId('test-messages-save').click();
    await expect(dialog).toBeHidden();
    await member.getByTestId('test-message-select').selectOption({ label: capitals });
    await member.getByTestId('test-run-start').click();
    await expect(member.getByTestId('test-run-result')).toHaveAttribute('data-status', 'succeeded', { timeout: 90_000 });
    for (const id of ['mail', 'if', 'label']) await expect(node(member, id)).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
    const condition = await inspect(member, 'if');
    await expect(condition.getByTestId('node-result')).toContainText('output: true');
    const label = await inspect(member, 'label');
    await expect(label.getByTestId('node-result-effects')).toContainText('simulated');
  });
  await context.close();
});

test('the builder in dark and in French', async ({ page, browser }, testInfo) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const name = 'Dora Dark';
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `dark-${stamp}@e2e.test`, name, password: 'dark-password-42' });
  const member = await context.newPage();
  await member.setViewportSize(viewport);
  const workflowId = await createWorkflow(context.request, `Dark and French ${stamp}`, {
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } },
      {
        id: 'if',
        type: 'logic.if',
        version: 2,
        name: 'Invoice?',
        params: { conditions: [{ left: '{{ trigger.body.subject }}', operator: 'contains', right: 'invoice' }] },
        position: { x: 300, y: 0 },
      },
    ],
    connections: [{ from: 'start', output: 'main', to: 'if' }],
  });
  const shots = testInfo.outputPath('screenshots');
  await mkdir(shots, { recursive: true });

  await test.step('Dark is chosen in the user menu: the page and the canvas follow', async () => {
    await member.goto(`/workflows/${workflowId}`);
    await expect(member.getByTestId('builder-canvas')).toBeVisible();
    await pickInUserMenu(member, name, 'Dark');
    await expect(member.locator('html')).toHaveAttribute('data-theme', 'dark');
    await member.reload();
    await expect(member.getByTestId('builder-canvas')).toBeVisible();
    // The choice is remembered (cookie) and the canvas draws in it, minimap included.
    await expect(member.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(member.locator('.react-flow')).toHaveClass(/\bdark\b/);
    await expect(member.locator('.react-flow__minimap')).toBeVisible();
    const condition = await inspect(member, 'if');
    await expect(condition).toContainText('The conditions (1-50).');
    const shot = await member.screenshot({ fullPage: true });
    await testInfo.attach('builder-dark', { body: shot, contentType: 'image/png' });
    await writeFile(path.join(shots, 'builder-dark.png'), shot);
  });

  await test.step('Français is chosen: the builder, its parameter help included, is in French', async () => {
    await pickInUserMenu(member, name, 'Français');
    await member.goto(`/workflows/${workflowId}`);
    await expect(member.getByTestId('builder-canvas')).toBeVisible();
    await expect(member.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(member.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(member.locator('.react-flow')).toHaveClass(/\bdark\b/);
    await expect(member.locator('.react-flow__minimap')).toBeVisible();
    const condition = await inspect(member, 'if');
    await expect(condition.getByText('Les conditions (1 à 50).')).toBeVisible({ timeout: 15_000 });
    await expect(condition).toContainText('Comment comparer left avec right.');
    await expect(condition).not.toContainText('The conditions (1-50).');
    await expect(condition).not.toContainText('How to compare');
    await expect(condition.locator('[data-field-path="conditions[0].operator"] select option:checked')).toHaveText('contient');
    const shot = await member.screenshot({ fullPage: true });
    await testInfo.attach('builder-dark-fr', { body: shot, contentType: 'image/png' });
    await writeFile(path.join(shots, 'builder-fr.png'), shot);
  });
  await context.close();
});
