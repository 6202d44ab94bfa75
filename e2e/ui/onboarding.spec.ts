/**
 * Journey (issue 19 §7): the home page's "Get started" list ticks itself. A new member sees three
 * steps to do; as a mailbox is connected (a real Dovecot), a "Try on my mail" evaluation is started
 * and a workflow is published (over REST: each step's own screen has its own journey), the list ticks
 * each one on the next visit of the home page, then says all is done and can be dismissed. The
 * administrator, who invited that member, finds "Invite your team" ticked on their own list.
 */
import { expect, test, type Page } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

const account: MailUser = { user: 'onboarding-desk@example.test', password: 'onboarding-desk-imap-password' };

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

async function expectStep(page: Page, step: 'mailbox' | 'template' | 'publish' | 'invite', done: boolean) {
  await expect(page.getByTestId(`get-started-${step}`)).toHaveAttribute('data-done', String(done));
}

test('the onboarding list ticks itself', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const stamp = Date.now().toString(36);
  const context = await signedInMember(browser, page.request, { email: `newcomer-${stamp}@e2e.test`, name: 'Newcomer', password: 'newcomer-password-42' });
  const member = await context.newPage();

  await test.step('a new member sees three steps to do, each linking to where it is done', async () => {
    await member.goto('/');
    const list = member.getByTestId('get-started');
    // The first visit of a fresh member's home page can be slow on a loaded machine (first render, hydration).
    await expect(list.getByRole('heading', { name: 'Get started' })).toBeVisible({ timeout: 30_000 });
    await expect(list).toContainText('0 of 3 done');
    await expect(member.getByTestId('get-started-invite')).toHaveCount(0);
    await expect(member.getByTestId('get-started-mailbox').getByRole('link', { name: 'Connect' })).toHaveAttribute('href', '/settings/mailboxes');
    for (const step of ['mailbox', 'template', 'publish'] as const) await expectStep(member, step, false);
  });

  const mailboxId = await test.step('connecting a mailbox ticks the first step', async () => {
    // One mail already in the mailbox, for "Try on my mail" to run over.
    await appendMessage({
      server: dovecot,
      ...account,
      raw: await buildRawMessage({ from: 'Alice Customer <alice@customer.example.test>', to: account.user, subject: `Hello ${stamp}`, messageId: `<hello-${stamp}@customer.example.test>`, text: 'A first mail.' }),
    });
    const id = await connectTestMailbox(member.request, { dovecot, smtp }, account);
    await waitForFirstSync(member.request, id);
    await member.goto('/');
    await expectStep(member, 'mailbox', true);
    await expect(member.getByTestId('get-started')).toContainText('1 of 3 done');
    return id;
  });

  const workflowId = await test.step('trying a workflow on my mail ticks the second', async () => {
    const created = await member.request.post('/api/v1/workflows', {
      data: {
        name: `Onboarding ${stamp}`,
        graph: {
          nodes: [
            { id: 'mail', type: 'trigger.mail', version: 1, name: 'Incoming mail', params: { mailboxIds: [mailboxId] }, position: { x: 0, y: 0 } },
            { id: 'draft', type: 'mail.draft', version: 1, name: 'Draft the reply', params: { replyTo: { mode: 'reply' }, bodyText: 'Thanks, we read it.' }, position: { x: 300, y: 0 } },
          ],
          connections: [{ from: 'mail', output: 'main', to: 'draft' }],
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { workflow } = (await created.json()) as { workflow: { id: string } };
    const evaluation = await member.request.post(`/api/v1/workflows/${workflow.id}/eval-runs`, { data: {} });
    expect(evaluation.ok(), await evaluation.text()).toBe(true);
    await member.goto('/');
    await expectStep(member, 'template', true);
    await expectStep(member, 'publish', false);
    return workflow.id;
  });

  await test.step('publishing ticks the last; the list says all is done and can be dismissed', async () => {
    const published = await member.request.post(`/api/v1/workflows/${workflowId}/publish`, { data: { note: 'onboarding journey' } });
    expect(published.ok(), await published.text()).toBe(true);
    await member.goto('/');
    await expectStep(member, 'publish', true);
    const list = member.getByTestId('get-started');
    await expect(list).toContainText('All set');
    await list.getByRole('button', { name: 'Dismiss' }).click();
    await expect(list).toHaveCount(0);
    await member.reload();
    await expect(member.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
    await expect(member.getByTestId('get-started')).toHaveCount(0);
  });

  await test.step('the administrator who invited that member finds "Invite your team" ticked', async () => {
    await page.goto('/');
    await expectStep(page, 'invite', true);
  });

  await context.close();
});
