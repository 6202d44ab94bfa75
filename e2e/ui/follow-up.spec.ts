/**
 * Journey of "waiting for a reply" (issue 24 §1), against a real Dovecot, nothing written as JSON.
 *
 * A member builds a follow-up in the builder through its forms: a mail trigger for a client's domain,
 * "Wait for a reply" for 2 business days (time zone, weekdays and closing time picked in the form),
 * and on its "no reply" output a notification; publishes. A client's mail arrives in the INBOX: the
 * run page shows the run waiting, "Waiting for a reply in this conversation until …". Another person
 * of the client's side answers in the same thread (In-Reply-To and References of the first mail): the
 * run ends by the reply (the `replied` output, the notification never sent), its page shows who
 * replied with the subject, and the link opens the reply's conversation in the webmail.
 */
import { expect as baseExpect, test } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import type { MailUser } from '@/server/testing/mail-servers/dovecot';
import { draftOf, dropType, expectSaved, inspect, node, wire } from '../fixtures/builder';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, useMailServers, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { publish } from '../fixtures/workflows';

// The machine is shared and busy: every wait here is generous (never a timed assertion).
const expect = baseExpect.configure({ timeout: 30_000 });

const viewport = { width: 1680, height: 1000 };
test.use({ viewport });

const account: MailUser = { user: 'follow-up-desk@example.test', password: 'follow-up-desk-imap-password' };

const servers = useMailServers([account]);

interface StepRead {
  nodeId: string;
  nodeType: string;
  status: string;
  output: string | null;
}

test('a follow-up built in the builder waits for the client’s reply and ends by it', async ({ page, browser }) => {
  test.setTimeout(420_000);
  const stamp = Date.now().toString(36);
  const subject = `Quote for 40 chairs ${stamp}`;
  const askId = `<ask-${stamp}@client.example.test>`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `follow-up-${stamp}@e2e.test`, name: 'Fanny Follow', password: 'follow-up-password-42' });
  const api = context.request;
  const member = await context.newPage();
  await member.setViewportSize(viewport);
  const mailboxId = await connectTestMailbox(api, servers, account);
  await waitForFirstSync(api, mailboxId);
  let workflowId = '';

  await test.step('mail trigger → wait for a reply → (no reply) notify me, dropped and wired', async () => {
    await member.goto('/workflows');
    await member.getByRole('button', { name: 'New workflow' }).first().click();
    const dialog = member.getByRole('dialog', { name: 'New workflow' });
    await dialog.getByLabel('Name', { exact: true }).fill(`Follow up ${stamp}`);
    await dialog.getByRole('button', { name: 'Create workflow' }).click();
    await expect(member).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/);
    workflowId = member.url().split('/').at(-1)!;
    await expect(member.getByTestId('builder-canvas')).toBeVisible();
    await dropType(member, 'trigger.mail', 134, 110);
    await expect(node(member, 'mail')).toBeVisible();
    await dropType(member, 'flow.wait_for_reply', 394, 110);
    await expect(node(member, 'wait_for_reply')).toBeVisible();
    await dropType(member, 'notify.owner', 694, 190);
    await expect(node(member, 'owner')).toBeVisible();
    // Both outputs of the wait are handles of their own, in words.
    await expect(member.getByTestId('handle-out-wait_for_reply-replied')).toContainText('replied');
    await expect(member.getByTestId('handle-out-wait_for_reply-timeout')).toContainText('no reply');
    await wire(member, 'mail', 'main', 'wait_for_reply');
    await wire(member, 'wait_for_reply', 'timeout', 'owner');
    await expect(member.locator('.react-flow__edge')).toHaveCount(2);
  });

  await test.step('each node is configured through its form: the client’s domain, two business days, a notification', async () => {
    const trigger = await inspect(member, 'mail');
    const from = trigger.locator('[data-field-path="from"]');
    await from.getByRole('button', { name: 'Add' }).click();
    await from.getByRole('textbox', { name: 'From 1' }).fill('@client.example.test');

    const wait = await inspect(member, 'wait_for_reply');
    await wait.getByRole('spinbutton', { name: 'Amount' }).fill('2');
    const unit = wait.getByLabel('Unit');
    await expect(unit.locator('option', { hasText: 'days' })).toHaveCount(1);
    await unit.selectOption({ label: 'days' });
    const hours = wait.locator('[data-field-path="businessHours"]');
    await hours.getByRole('button', { name: 'Set' }).click();
    await hours.getByLabel('Time zone').selectOption('Europe/Paris');
    const days = hours.getByRole('group', { name: 'Days' });
    await expect(days.getByRole('checkbox', { name: 'Friday' })).toBeChecked();
    await expect(days.getByRole('checkbox', { name: 'Saturday' })).not.toBeChecked();
    await days.getByRole('checkbox', { name: 'Saturday' }).check();
    await hours.getByLabel('End', { exact: true }).fill('17:30');

    const notify = await inspect(member, 'owner');
    await notify.getByRole('textbox', { name: 'Title' }).fill('No reply yet: {{ trigger.subject }}');
    await expectSaved(member);
    await expect(member.locator('[data-testid="builder-node"]:not([data-issues="0"])')).toHaveCount(0);

    // What the forms wrote is what the engine reads.
    const draft = await draftOf(api, workflowId);
    const waitNode = draft.graph.nodes.find((item) => item.id === 'wait_for_reply');
    expect(waitNode?.params).toEqual({
      amount: 2,
      unit: 'days',
      businessHours: { timeZone: 'Europe/Paris', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], end: '17:30' },
    });
    expect(draft.graph.nodes.find((item) => item.id === 'mail')?.params).toMatchObject({ from: ['@client.example.test'] });
    expect(draft.graph.connections.map(({ from, output, to }) => `${from}:${output}->${to}`).sort()).toEqual(['mail:main->wait_for_reply', 'wait_for_reply:timeout->owner']);
    await publish(member, 'Follow-up built in the editor');
  });

  let runUrl = '';
  await test.step('the client’s mail arrives: the run waits for a reply, and its page says until when', async () => {
    await appendMessage({
      server: servers.dovecot,
      ...account,
      raw: await buildRawMessage({ from: 'Ann Client <ann@client.example.test>', to: account.user, subject, messageId: askId, text: 'Could you send us a quote for 40 chairs?' }),
    });
    await waitForMirrored(api, mailboxId, subject);
    await member.getByTestId('workflow-executions-link').click();
    const row = member.getByTestId('execution-row').filter({ hasText: subject });
    await expect(row).toHaveAttribute('data-status', 'waiting', { timeout: 120_000 });
    await row.getByRole('link').first().click();
    await expect(member).toHaveURL(/\/executions\/[0-9a-f-]{36}$/);
    runUrl = member.url();
    await expect(member.getByTestId('execution-detail-status')).toHaveText('Waiting');
    const hint = member.getByTestId('execution-waiting');
    await expect(hint).toContainText('Waiting for a reply in this conversation until');
    await expect(hint).toContainText('Wait for a reply');
    const detail = member.getByTestId('step-detail');
    await expect(detail.getByTestId('step-waiting')).toContainText('Waiting for a reply in this conversation until');
    await expect(detail.getByTestId('wait-conversation-link')).toHaveAttribute('href', new RegExp(`/messages\\?mailbox=${mailboxId}&thread=`));
  });

  await test.step('someone else on the client’s side replies in the thread: the run ends by the reply', async () => {
    await appendMessage({
      server: servers.dovecot,
      ...account,
      raw: await buildRawMessage({
        from: 'Bob Buyer <bob@client.example.test>',
        to: account.user,
        cc: 'ann@client.example.test',
        subject: `Re: ${subject}`,
        messageId: `<reply-${stamp}@client.example.test>`,
        inReplyTo: askId,
        references: [askId],
        text: 'Ann is away: I am following this up. Any news on the quote?',
      }),
    });
    await waitForMirrored(api, mailboxId, `Re: ${subject}`);
    // The page follows the run live (or re-reads it while the live channel is down).
    await expect(member.getByTestId('execution-detail-status')).toHaveText('Succeeded', { timeout: 120_000 });
    await expect(member.getByTestId('execution-waiting')).toHaveCount(0);
    await member.getByTestId('timeline-step').filter({ hasText: 'Wait for a reply' }).click();
    const detail = member.getByTestId('step-detail');
    await expect(detail.getByTestId('step-output')).toHaveText('replied');
    const end = detail.getByTestId('step-reply-end');
    await expect(end.locator('[data-outcome]')).toHaveAttribute('data-outcome', 'replied');
    await expect(end).toContainText('Ended by a reply');
    await expect(end).toContainText('Bob Buyer <bob@client.example.test> replied on');
    await expect(end).toContainText(`Subject: Re: ${subject}`);

    // The notification on "no reply" never ran.
    const runId = runUrl.split('/').at(-1)!;
    const read = await api.get(`/api/v1/executions/${runId}`);
    expect(read.status()).toBe(200);
    const { steps } = (await read.json()) as { steps: StepRead[] };
    expect(steps.find((step) => step.nodeId === 'wait_for_reply')).toMatchObject({ nodeType: 'flow.wait_for_reply', status: 'succeeded', output: 'replied' });
    expect(steps.filter((step) => step.nodeId === 'owner' && step.status === 'succeeded')).toEqual([]);

    // The link opens the reply in its conversation: the client's mail and the reply.
    await end.getByRole('link', { name: 'Open the reply' }).click();
    await expect(member).toHaveURL(new RegExp(`/messages\\?mailbox=${mailboxId}&thread=`));
    const thread = member.getByTestId('thread-view');
    await expect(thread.getByTestId('message-item')).toHaveCount(2);
    await expect(thread).toContainText('Bob Buyer');
  });
  await context.close();
});
