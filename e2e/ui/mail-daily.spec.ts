/**
 * Daily webmail journeys (issue 19, "It works on real mail"), on a real Dovecot mailbox: each journey
 * signs in a member of its own and connects an account of its own on the test Dovecot (the mail is
 * delivered by IMAP APPEND before the first sync, then waited for in the mirror).
 *
 * - A short mail shows its attachment and Reply in view, without scrolling; its reading frame runs no script.
 * - The keyboard: r replies, f forwards, c composes, e archives with an Undo that brings it back.
 * - A plain-text mail's link is a real link opening in a new tab without an opener or referrer.
 * - A list mail offers Unsubscribe. One-click is only offered here, not carried out: the service POSTs
 *   to https URLs only and verifies the certificate (no test certificate authority is trusted by the
 *   shared instance), so a list server on 127.0.0.1 cannot answer it. A mailto-only list opens a new
 *   message prepared as the list asks.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { appendMessage, buildRawMessage, openTestImap, type RawMessageFields } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';

const accounts = {
  reading: { user: 'daily-reading@example.test', password: 'daily-reading-imap-password' },
  keyboard: { user: 'daily-keyboard@example.test', password: 'daily-keyboard-imap-password' },
  links: { user: 'daily-links@example.test', password: 'daily-links-imap-password' },
} satisfies Record<string, MailUser>;

let dovecot: DovecotServer;
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dovecot = await startDovecot({ users: Object.values(accounts) });
  smtp = await startSmtpServer({ users: Object.values(accounts), tls: 'none' });
  for (const account of Object.values(accounts)) {
    const client = await openTestImap({ server: dovecot, ...account });
    try {
      await client.mailboxCreate('Archive').catch(() => undefined);
    } finally {
      await client.logout();
    }
  }
});

test.afterAll(async () => {
  await smtp?.stop();
  await dovecot?.stop();
});

/**
 * A fresh member whose mailbox (the given account) holds the given mails, mirrored; returns the
 * member's page on the inbox.
 */
async function memberWithMail(browser: Browser, page: Page, account: MailUser, mails: Omit<RawMessageFields, 'to'>[]): Promise<Page> {
  // The administrator only invites the member: signed in over REST (the sign-in form is other journeys' subject).
  const login = await page.request.post('/api/v1/auth/login', { data: e2eAdmin });
  expect(login.ok(), await login.text()).toBe(true);
  const stamp = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const context = await signedInMember(browser, page.request, { email: `daily-${stamp}@e2e.test`, name: 'Dana Daily', password: 'dana-daily-password' });
  for (const mail of mails) await appendMessage({ server: dovecot, ...account, raw: await buildRawMessage({ ...mail, to: account.user }) });
  const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, account);
  await waitForFirstSync(context.request, mailboxId);
  for (const mail of mails) await waitForMirrored(context.request, mailboxId, mail.subject);
  const member = await context.newPage();
  await member.goto('/messages');
  await expect(member.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible({ timeout: 30_000 });
  return member;
}

async function openThread(member: Page, subject: string) {
  const row = member.getByTestId('thread-row').filter({ hasText: subject });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.click();
  const view = member.getByTestId('thread-view');
  await expect(view.getByRole('heading', { name: subject })).toBeVisible({ timeout: 30_000 });
  return { row, view };
}

test('a short mail shows its attachments and Reply without scrolling', async ({ browser, page }) => {
  test.setTimeout(240_000);
  const subject = `Minutes of Monday ${Date.now()}`;
  const member = await memberWithMail(browser, page, accounts.reading, [
    {
      from: 'Alice Sender <alice@example.test>',
      subject,
      text: 'Hi, the minutes are attached.\nAlice',
      attachments: [{ filename: 'minutes.txt', content: 'Decisions: ship on Friday.\n', contentType: 'text/plain' }],
    },
  ]);
  try {
    const { view } = await openThread(member, subject);
    const frame = view.getByTestId('message-frame');
    await expect(frame).toHaveAttribute('srcdoc', /the minutes are attached/, { timeout: 30_000 });

    // In view as the thread opens: nothing was scrolled.
    const attachment = view.getByRole('link', { name: 'Download minutes.txt' });
    await expect(attachment).toBeInViewport({ timeout: 15_000 });
    await expect(view.getByTestId('attachments')).toContainText('minutes.txt');
    await expect(view.getByText('1 attachment', { exact: true })).toBeInViewport();
    await expect(view.getByRole('button', { name: 'Reply', exact: true })).toBeInViewport();

    // The reading frame is sandboxed and may run nothing.
    await expect(frame).toHaveAttribute('sandbox', /allow-popups/);
    await expect(frame).not.toHaveAttribute('sandbox', /allow-scripts/);
  } finally {
    await member.context().close();
  }
});

test('keyboard: r replies, f forwards, c composes, e archives with an undo', async ({ browser, page }) => {
  test.setTimeout(240_000);
  const subject = `Budget review ${Date.now()}`;
  const member = await memberWithMail(browser, page, accounts.keyboard, [
    { from: 'Bob Budget <bob@example.test>', subject, text: 'Can you look at the budget before Thursday?' },
  ]);
  try {
    const { row, view } = await openThread(member, subject);
    await expect(view.getByTestId('message-frame')).toHaveAttribute('srcdoc', /look at the budget/, { timeout: 30_000 });

    await member.keyboard.press('r');
    const reply = member.getByRole('dialog', { name: 'Reply' });
    await expect(reply).toBeVisible();
    await expect(reply.getByTestId('compose-subject')).toHaveValue(`Re: ${subject}`, { timeout: 30_000 });
    await expect(reply.getByTestId('compose-to')).toHaveValue('bob@example.test');
    await member.keyboard.press('Escape');
    await expect(reply).toHaveCount(0);

    await member.keyboard.press('f');
    const forward = member.getByRole('dialog', { name: 'Forward' });
    await expect(forward).toBeVisible();
    await expect(forward.getByTestId('compose-subject')).toHaveValue(`Fwd: ${subject}`, { timeout: 30_000 });
    await expect(forward.getByTestId('compose-to')).toHaveValue('');
    await forward.getByRole('button', { name: 'Close' }).click();
    await expect(forward).toHaveCount(0);

    await member.keyboard.press('c');
    const fresh = member.getByRole('dialog', { name: 'New message' });
    await expect(fresh).toBeVisible();
    await expect(fresh.getByTestId('compose-subject')).toHaveValue('');
    await expect(fresh.getByTestId('compose-to')).toBeFocused();
    await member.keyboard.press('Escape');
    await expect(fresh).toHaveCount(0);

    // e archives: the conversation leaves the inbox, a toast offers Undo.
    await member.keyboard.press('e');
    await expect(row).toHaveCount(0);
    const toast = member.getByTestId('archive-toast');
    await expect(toast).toContainText('Conversation archived.');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(toast).toContainText('Moved back to the inbox.');
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(member.getByTestId('thread-view').getByRole('heading', { name: subject })).toBeVisible();
    await expect(member.getByTestId('thread-action-error')).toHaveCount(0);
  } finally {
    await member.context().close();
  }
});

test('links in a plain-text mail are clickable; a list mail offers one-click unsubscribe, a mailto-only list a prepared mail', async ({ browser, page }) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const linked = `Report is ready ${stamp}`;
  const oneClick = `Weekly digest ${stamp}`;
  const byMail = `Club letter ${stamp}`;
  const member = await memberWithMail(browser, page, accounts.links, [
    { from: 'Rita Reports <rita@example.test>', subject: linked, text: 'The report is at https://example.test/reports/q3?id=7 for you.\nRita' },
    {
      from: 'The Digest <digest@news.example.test>',
      subject: oneClick,
      text: 'This week in the digest.',
      headers: {
        'List-Unsubscribe': '<https://127.0.0.1:9/u/abc>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    },
    {
      from: 'The Club <club@club.example.test>',
      subject: byMail,
      text: 'News from the club.',
      headers: { 'List-Unsubscribe': '<mailto:leave@club.example.test?subject=unsubscribe%20me>' },
    },
  ]);
  try {
    await test.step('the plain-text link opens in a new tab, without opener or referrer', async () => {
      const { view } = await openThread(member, linked);
      const frame = view.getByTestId('message-frame');
      await expect(frame).toHaveAttribute('srcdoc', /The report is at/, { timeout: 30_000 });
      const link = frame.contentFrame().getByRole('link', { name: 'https://example.test/reports/q3?id=7' });
      await expect(link).toBeVisible({ timeout: 15_000 });
      await expect(link).toHaveAttribute('href', 'https://example.test/reports/q3?id=7');
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(frame.contentFrame().getByText('for you.')).toBeVisible();
    });

    await test.step('a one-click list offers Unsubscribe and asks before sending the request', async () => {
      const { view } = await openThread(member, oneClick);
      const unsubscribe = view.getByTestId('unsubscribe');
      await expect(unsubscribe).toHaveText('Unsubscribe', { timeout: 30_000 });
      await unsubscribe.click();
      const confirm = member.getByRole('alertdialog', { name: 'Unsubscribe from this list?' });
      await expect(confirm).toBeVisible();
      await expect(confirm).toContainText('A one-click unsubscribe request is sent to The Digest (RFC 8058).');
      await expect(confirm.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(unsubscribe).toBeVisible();
    });

    await test.step('a mailto-only list opens a new message prepared as the list asks', async () => {
      const { view } = await openThread(member, byMail);
      const unsubscribe = view.getByTestId('unsubscribe');
      await expect(unsubscribe).toHaveText('Unsubscribe by mail', { timeout: 30_000 });
      await unsubscribe.click();
      const compose = member.getByRole('dialog', { name: 'New message' });
      await expect(compose).toBeVisible();
      await expect(compose.getByTestId('compose-to')).toHaveValue('leave@club.example.test');
      await expect(compose.getByTestId('compose-subject')).toHaveValue('unsubscribe me');
      await expect(compose.getByTestId('compose-from')).toHaveValue(/[0-9a-f-]{36}/);
    });
  } finally {
    await member.context().close();
  }
});
