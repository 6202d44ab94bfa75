/**
 * Journey of the mailbox analyzer, against a real Dovecot and a fake AI vendor (server/testing/ai-fakes on
 * 127.0.0.1, opened to AI base URLs by LLM_ALLOW_HOSTS in playwright.config.ts).
 *
 * The administrator adds a connection of its own to the fake (a unique label and model: the instance is
 * shared with the other journeys) and routes `analyzer` to it. A member whose mirrored mailbox holds a
 * newsletter's six letters, a shop's five invoices and one personal mail opens the analyzer, picks the
 * mailbox and analyzes it: the progress shows while the fake takes its time, then the figures, the sender
 * groups (the default minimum volume, 5, leaves the personal mail out) and the two automations the fake
 * proposes with their evidence. "Create this workflow" installs the newsletter's draft and opens it in
 * the builder.
 */
import { expect, test } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { startFakeVendor, type FakeVendorServer } from '../../server/testing/ai-fakes';
import { addFakeConnection, removeConnection, routePurpose } from '../fixtures/ai';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

test.use({ viewport: { width: 1440, height: 1000 } });

const account: MailUser = { user: 'analyzer-desk@example.test', password: 'analyzer-desk-imap-password' };

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

async function deliver(from: string, subject: string, text: string) {
  await appendMessage({ server: dovecot, ...account, raw: await buildRawMessage({ from, to: account.user, subject, text }) });
}

test('a member analyzes a mailbox, reads the figures and proposals, and creates a workflow from one', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const label = `Analyzer ${stamp}`;
  const model = `analyzer-model-${stamp}`;

  await test.step('the administrator connects the fake vendor and routes the analyzer to it', async () => {
    await signIn(page, e2eAdmin.email, e2eAdmin.password);
    await addFakeConnection(page, vendor, { label, model, apiKey: 'sk-e2e-analyzer-2468' });
    await routePurpose(page, 'analyzer', { label, model });
  });

  const context = await signedInMember(browser, page.request, { email: `analyzer-${stamp}@e2e.test`, name: 'Ana Lyzer', password: 'ana-lyzer-password' });
  const member = await context.newPage();
  try {
    await test.step('the mailbox holds a newsletter, a shop’s invoices and a personal mail', async () => {
      for (let index = 1; index <= 6; index += 1) await deliver('The Weekly <news@letters.example.test>', `Weekly letter ${index}`, `Issue ${index} of the weekly letter.`);
      for (let index = 1; index <= 5; index += 1) await deliver('Shop Billing <billing@shop.example.test>', `Invoice ${100 + index}`, `Your invoice ${100 + index} is attached.`);
      await deliver('Carol <carol@friends.example.test>', 'Lunch on Friday?', 'Are you free?');
      const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, account);
      await waitForFirstSync(context.request, mailboxId);
      await waitForMirrored(context.request, mailboxId, 'Lunch on Friday?');
    });

    await test.step('the member analyzes the mailbox and follows the progress', async () => {
      // The fake takes its time: the model phase is seen running.
      vendor.reply({
        kind: 'slow',
        delayMs: 3_000,
        then: {
          kind: 'json',
          value: {
            proposals: [
              {
                groupKeys: ['domain:letters.example.test', 'subject:weekly letter #'],
                kind: 'label_archive',
                title: 'The Weekly: label and archive',
                rationale: 'Six letters a month from one newsletter, never answered.',
              },
              { groupKeys: ['domain:shop.example.test'], kind: 'extract_table', title: 'Shop invoices: extract into a table', rationale: 'Five invoices with the same layout.' },
            ],
          },
          usage: { input: 800, output: 120 },
        },
      });
      await member.goto('/');
      await member.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Analyzer' }).click();
      await expect(member.getByRole('heading', { name: 'Mailbox analyzer' })).toBeVisible();
      await expect(member.getByTestId('analyzer-mailbox')).toHaveValue(/[0-9a-f-]{36}/);
      await member.getByTestId('analyzer-mailbox').selectOption({ label: account.user });
      await expect(member.getByText('This mailbox was never analysed.')).toBeVisible();
      await member.getByTestId('analyzer-start').click();
      const status = member.getByTestId('analyzer-status');
      await expect(status).toContainText('Running');
      await expect(status).toContainText('Asking the model');
      await expect(status).toContainText('Done', { timeout: 60_000 });
    });

    await test.step('the figures, the groups and the proposed automations with their evidence', async () => {
      const stats = member.getByTestId('analyzer-stats');
      await expect(stats).toContainText('Messages, 30 days12');
      await expect(stats).toContainText('Senders3');
      await expect(stats).toContainText('Domains3');
      await expect(stats).toContainText('Groups4');
      // The hours the mail came in show a bar (each column takes the chart's height).
      const bar = member.locator('[data-testid="analyzer-hour"]:not([data-volume="0"])').first().getByTestId('analyzer-hour-bar');
      expect((await bar.boundingBox())?.height ?? 0).toBeGreaterThan(0);
      const groups = member.getByTestId('analyzer-groups');
      await expect(groups).toContainText('letters.example.test');
      await expect(groups).toContainText('shop.example.test');
      await expect(groups).not.toContainText('friends.example.test');
      await expect(groups.getByRole('listitem').filter({ hasText: 'letters.example.test' })).toHaveText(/6 messages, 1 sender$/);
      await expect(member.getByTestId('analyzer-outcome')).toContainText('The model looked at your groups.');
      const opportunities = member.getByTestId('analyzer-opportunity');
      await expect(opportunities).toHaveCount(2);
      const weekly = opportunities.filter({ hasText: 'The Weekly: label and archive' });
      await expect(weekly).toContainText('Six letters a month from one newsletter, never answered.');
      // Its domain group and its subject group hold the same six letters: counted once.
      await expect(weekly).toContainText('6 messages');
      await expect(weekly).toContainText('letters.example.test');
      // Its examples, each subject once.
      await expect(weekly.getByRole('listitem')).toHaveCount(3);
      await expect(weekly).toContainText(/Weekly letter \d/);
      const invoices = opportunities.filter({ hasText: 'Shop invoices: extract into a table' });
      await expect(invoices).toContainText('5 messages');
      await expect(invoices).toContainText(/Invoice 10\d/);
    });
    await test.step('“Create this workflow” installs the draft and opens it in the builder', async () => {
      await member.getByTestId('analyzer-opportunity').filter({ hasText: 'The Weekly' }).getByRole('button', { name: 'Create this workflow' }).click();
      await expect(member).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/, { timeout: 30_000 });
      await expect(member.getByRole('heading', { name: 'The Weekly: label and archive' })).toBeVisible();
      await expect(member.getByTestId('workflow-status')).toHaveText('Draft');
      await expect(member.getByTestId('builder-node')).toHaveCount(4);
      // A valid draft: no node reports an issue.
      await expect(member.locator('[data-testid="builder-node"]:not([data-issues="0"])')).toHaveCount(0);
      for (const id of ['trigger', 'label', 'read', 'archive']) await expect(member.locator(`[data-testid="builder-node"][data-node-id="${id}"]`)).toHaveCount(1);
    });
  } finally {
    await context.close();
    await removeConnection(page.request, label);
  }
});
