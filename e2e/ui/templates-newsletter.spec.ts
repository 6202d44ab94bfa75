/**
 * Journey (issue 19 §2): a newcomer installs the newsletter template and sees it work on a list
 * newsletter. A new member's Dovecot mailbox is connected (over REST: mail.spec.ts covers the dialog);
 * in the gallery the template's card reads in words, installing it opens the draft, which is published
 * with nothing to fill in; a Mailchimp newsletter whose sender address says nothing of "newsletter"
 * arrives by IMAP APPEND and ends in Archive with the Newsletters keyword on the server, while a
 * friend's mail stays in the inbox; the workflow's executions list shows the run succeeded.
 */
import { expect, test } from '@playwright/test';
import { corpusMessage } from '@/server/testing/mail-corpus';
import { appendMessage, buildRawMessage, openTestImap } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

const user = { user: 'newcomer@example.test', password: 'newcomer-imap-password' };
let dovecot: DovecotServer;
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  dovecot = await startDovecot({ users: [user] });
  smtp = await startSmtpServer({ users: [user], tls: 'none' });
});

test.afterAll(async () => {
  await smtp?.stop();
  await dovecot?.stop();
});

/** The folder holding the message with this Message-ID on the server, and its flags. */
async function onServer(messageId: string) {
  const client = await openTestImap({ server: dovecot, ...user });
  try {
    for (const folder of ['INBOX', 'Archive']) {
      const lock = await client.getMailboxLock(folder);
      try {
        const uids = await client.search({ header: { 'message-id': messageId } }, { uid: true });
        if (uids && uids.length > 0) {
          const message = await client.fetchOne(String(uids[0]), { flags: true }, { uid: true });
          return `${folder}:${[...((message && message.flags) || [])].sort().join(',')}`;
        }
      } finally {
        lock.release();
      }
    }
    return 'nowhere';
  } finally {
    await client.logout();
  }
}

test('a newcomer installs the newsletter template and sees it work on a list newsletter', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `newcomer-${stamp}@e2e.test`, name: 'Nora Newcomer', password: 'newcomer-password-42' });
  const member = await context.newPage();
  const mailboxId = await connectTestMailbox(member.request, { dovecot, smtp }, user);
  await waitForFirstSync(member.request, mailboxId);

  let workflowId = '';
  await test.step('the card reads in words; installing opens the draft', async () => {
    await member.goto('/templates');
    const card = member.getByTestId('template-card').filter({ hasText: 'Label and archive newsletters' });
    await expect(card).toContainText('Incoming mail');
    await expect(card).not.toContainText('trigger.mail@1');
    await card.getByRole('button', { name: 'Install Label and archive newsletters' }).click();
    const dialog = member.getByRole('dialog', { name: 'Install “Label and archive newsletters”' });
    await dialog.getByRole('button', { name: 'Install', exact: true }).click();
    await expect(member).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    workflowId = member.url().split('/').pop()!;
    await expect(member.getByTestId('workflow-status')).toHaveText('Draft');
  });

  await test.step('published with nothing to fill in', async () => {
    const published = await member.request.post(`/api/v1/workflows/${workflowId}/publish`, { data: {} });
    expect(published.status(), await published.text()).toBe(200);
  });

  await test.step('a list newsletter is archived with its label on the server; a friend’s mail stays', async () => {
    const newsletter = corpusMessage('mailchimp-newsletter');
    const newsletterId = /^Message-ID:\s*(<[^>]+>)/im.exec(newsletter.toString('utf8'))![1]!;
    const client = await openTestImap({ server: dovecot, ...user });
    try {
      await client.append('INBOX', newsletter);
    } finally {
      await client.logout();
    }
    const friend = `Café jeudi ${stamp}`;
    await appendMessage({ server: dovecot, ...user, raw: await buildRawMessage({ from: 'Amaia <amaia@friends.example>', to: user.user, subject: friend, text: 'On se voit jeudi ?' }) });
    await waitForMirrored(member.request, mailboxId, friend);
    await expect.poll(() => onServer(newsletterId), { timeout: 90_000 }).toBe('Archive:Newsletters,\\Seen');
    const client2 = await openTestImap({ server: dovecot, ...user });
    try {
      const lock = await client2.getMailboxLock('INBOX');
      try {
        expect(await client2.search({ subject: friend }, { uid: true })).toHaveLength(1);
      } finally {
        lock.release();
      }
    } finally {
      await client2.logout();
    }
  });

  await test.step('the workflow’s executions list shows the run that acted', async () => {
    await member.goto(`/executions?workflowId=${workflowId}`);
    const row = member.getByTestId('execution-row');
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-status', 'succeeded');
  });
  await context.close();
});
