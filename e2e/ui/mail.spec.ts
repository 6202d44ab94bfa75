/**
 * Journey: a member connects a real (test) Dovecot mailbox through the interface, first seeing the
 * IMAP server's refusal inside the IMAP block, then with the right password; a message delivered by
 * IMAP APPEND appears in the webmail without a reload; it is opened and archived, and the IMAP server
 * itself then has it in Archive and no longer in INBOX.
 *
 * Needs the instance to allow private mail hosts (MAIL_ALLOW_PRIVATE_HOSTS=1 in playwright.config.ts)
 * and the runner's sync (delta sync with IDLE, operations applied to the server).
 */
import { expect, test } from '@playwright/test';
import { appendMessage, buildRawMessage, openTestImap } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { e2eAdmin } from '../fixtures/env';
import { signIn } from '../fixtures/session';

const user = { user: 'journey@example.test', password: 'journey-imap-password' };
let dovecot: DovecotServer;
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  dovecot = await startDovecot({ users: [user] });
  smtp = await startSmtpServer({ users: [user], tls: 'none' });
  const client = await openTestImap({ server: dovecot, ...user });
  try {
    await client.mailboxCreate('Archive').catch(() => undefined);
  } finally {
    await client.logout();
  }
});

test.afterAll(async () => {
  await smtp?.stop();
  await dovecot?.stop();
});

async function foldersHolding(subject: string): Promise<string[]> {
  const client = await openTestImap({ server: dovecot, ...user });
  try {
    const found: string[] = [];
    for (const folder of ['INBOX', 'Archive']) {
      const lock = await client.getMailboxLock(folder);
      try {
        const uids = await client.search({ subject }, { uid: true });
        if (uids && uids.length > 0) found.push(folder);
      } finally {
        lock.release();
      }
    }
    return found;
  } finally {
    await client.logout();
  }
}

test('connect Dovecot in the UI, see new mail arrive live, open and archive it, find it archived on the server', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Mailboxes' }).click();
  await expect(page.getByRole('heading', { name: 'Mailboxes', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Connect IMAP/SMTP' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Connect an IMAP/SMTP mailbox' });
  await dialog.getByLabel('Email address').fill(user.user);
  await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
  await dialog.getByLabel('IMAP host').fill(dovecot.host);
  await dialog.getByLabel('IMAP port').fill(String(dovecot.tlsPort));
  await expect(dialog.getByLabel('IMAP over TLS')).toBeChecked();
  await dialog.getByLabel('SMTP host').fill(smtp.host);
  await dialog.getByLabel('SMTP over TLS').uncheck();
  await expect(dialog.getByLabel('SMTP port')).toHaveValue('587');
  await dialog.getByLabel('SMTP port').fill(String(smtp.port));
  await dialog.getByLabel('Allow an invalid certificate').check();
  await dialog.getByRole('button', { name: 'Connect mailbox' }).click();

  // The IMAP server refuses the password: said inside the IMAP block, nothing stored.
  await expect(dialog.getByTestId('imap-probe-error')).toContainText('refused the username or password', { timeout: 30_000 });
  await expect(dialog.getByTestId('smtp-probe-error')).toHaveCount(0);

  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Connect mailbox' }).click();
  await expect(page.getByTestId('mailboxes-notice')).toContainText(`${user.user} is connected`, { timeout: 30_000 });
  const card = page.getByTestId('mailbox-card').filter({ hasText: user.user });
  await expect(card).toContainText('Active');

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Messages' }).click();
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect(page.getByTestId('thread-list')).toBeVisible();

  // Delivered while the page is open: it must appear without a reload.
  const subject = `Live arrival ${Date.now()}`;
  await appendMessage({
    server: dovecot,
    ...user,
    raw: await buildRawMessage({ from: 'Alice Sender <alice@example.test>', to: user.user, subject, text: 'Hello from the journey test.' }),
  });
  const row = page.getByTestId('thread-row').filter({ hasText: subject });
  await expect(row).toBeVisible({ timeout: 30_000 });

  await row.click();
  const view = page.getByTestId('thread-view');
  await expect(view.getByRole('heading', { name: subject })).toBeVisible();
  await expect(view.getByTestId('message-item')).toHaveCount(1);
  const frame = view.getByTestId('message-frame');
  await expect(frame).toHaveAttribute('sandbox', 'allow-same-origin allow-popups allow-popups-to-escape-sandbox');
  await expect(frame).toHaveAttribute('srcdoc', /Hello from the journey test\./);

  await view.getByRole('button', { name: 'Archive' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('thread-action-error')).toHaveCount(0);

  // The runner applies the move on the server.
  await expect.poll(() => foldersHolding(subject), { timeout: 60_000 }).toEqual(['Archive']);

  // And the mirror agrees: the thread is listed in Archive.
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: 'Archive' }).click();
  await expect(page.getByTestId('thread-row').filter({ hasText: subject })).toBeVisible();
});
