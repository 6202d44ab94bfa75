/**
 * Journeys of sending, against a real Dovecot and a real SMTP peer: nothing is seeded, every message
 * flows through the product (IMAP APPEND → sync → workflow → review queue → send pipeline → SMTP
 * peer, and the sent copy back through Dovecot's Sent folder into the thread).
 *
 *  1. A workflow (incoming mail → draft a reply) drafts a reply to a delivered mail; the member opens
 *     Review, corrects the draft inline and sends it; the SMTP peer receives it exactly once, threaded
 *     (In-Reply-To = the original's Message-ID), with the corrected text; the reply then appears in the
 *     webmail's thread.
 *  2. A second workflow (webhook → ask for approval, with an approver address) emails the approval
 *     through the member's mailbox; the approve link taken from the received message opens a page that
 *     decides nothing by itself (still pending) until its button is pressed; then the run goes on.
 *  3. A member replies from the webmail: the undo toast shows, the peer receives the reply once the
 *     undo window has passed; a second reply undone within the window never reaches the peer.
 *
 * Each journey has its own member and its own Dovecot account (the peer's log is filtered by the
 * account that authenticated), so the journeys and other files sharing the instance do not mix.
 * Needs MAIL_ALLOW_PRIVATE_HOSTS=1 (playwright.config.ts) and the default 10 s undo window.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type ReceivedMessage, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { openComposeFrom } from '../fixtures/compose';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

const accounts = {
  draft: { user: 'review-desk@example.test', password: 'review-desk-imap-password' },
  approval: { user: 'approvals-desk@example.test', password: 'approvals-desk-imap-password' },
  webmail: { user: 'webmail-desk@example.test', password: 'webmail-desk-imap-password' },
} satisfies Record<string, MailUser>;

let dovecot: DovecotServer;
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  const users = Object.values(accounts);
  dovecot = await startDovecot({ users });
  smtp = await startSmtpServer({ users, tls: 'none' });
});

test.afterAll(async () => {
  await smtp?.stop();
  await dovecot?.stop();
});

/** What the SMTP peer accepted from one account (the user that authenticated). */
function receivedFrom(account: MailUser): ReceivedMessage[] {
  return smtp.messages.filter((message) => message.user === account.user);
}

async function parsed(message: ReceivedMessage): Promise<ParsedMail> {
  return simpleParser(message.raw);
}

/** A new member of their own, signed in in a context of their own, with a page open. */
async function newMember(page: Page, browser: Browser, who: string) {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const stamp = Date.now().toString(36);
  const context = await signedInMember(browser, page.request, { email: `${who}-${stamp}@e2e.test`, name: `${who} member`, password: `${who}-member-password-42` });
  return { context, page: await context.newPage(), stamp };
}

/** Creates and publishes a workflow over REST (the workflow pages have journeys of their own). */
async function publishedWorkflow(request: APIRequestContext, name: string, graph: unknown): Promise<string> {
  const created = await request.post('/api/v1/workflows', { data: { name, graph } });
  expect(created.status(), await created.text()).toBe(201);
  const { workflow } = (await created.json()) as { workflow: { id: string } };
  const published = await request.post(`/api/v1/workflows/${workflow.id}/publish`, { data: { note: 'e2e sending journey' } });
  expect(published.ok(), await published.text()).toBe(true);
  return workflow.id;
}

test('a workflow drafts a reply; corrected and sent from Review, the peer receives it once and it joins the thread', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const member = await newMember(page, browser, 'drafter');
  const { stamp } = member;
  const account = accounts.draft;
  const subject = `Order question ${stamp}`;
  const originalMessageId = `<order-${stamp}@customer.example.test>`;
  const correctedSubject = `Re: ${subject} (answered)`;
  const correctedBody = `Hello Alice, your order ${stamp} ships on Monday. Corrected by a human.`;

  try {
    const mailboxId = await connectTestMailbox(member.context.request, { dovecot, smtp }, account);
    await waitForFirstSync(member.context.request, mailboxId);

    const workflowId = await test.step('a workflow drafts a reply to each incoming mail', () =>
      publishedWorkflow(member.context.request, `Reply drafter ${stamp}`, {
        nodes: [
          { id: 'mail', type: 'trigger.mail', version: 1, name: 'Incoming mail', params: { mailboxIds: [mailboxId] }, position: { x: 0, y: 0 } },
          {
            id: 'draft',
            type: 'mail.draft',
            version: 1,
            name: 'Draft the reply',
            params: { replyTo: { mode: 'reply' }, bodyText: 'Dear {{ trigger.from.name }}, about “{{ trigger.subject }}”: we will come back to you.' },
            position: { x: 300, y: 0 },
          },
        ],
        connections: [{ from: 'mail', output: 'main', to: 'draft' }],
      }),
    );

    await test.step('a mail delivered by IMAP APPEND starts the workflow, which drafts a reply into the review queue', async () => {
      await appendMessage({
        server: dovecot,
        ...account,
        raw: await buildRawMessage({ from: 'Alice Customer <alice@customer.example.test>', to: account.user, subject, messageId: originalMessageId, text: 'When does my order ship?' }),
      });
      await waitForMirrored(member.context.request, mailboxId, subject);
      await expect
        .poll(
          async () => {
            const answer = await member.context.request.get(`/api/v1/review?workflowId=${workflowId}`);
            const { items } = (await answer.json()) as { items: { subject: string; origin: string; mode: string }[] };
            return items.map((item) => `${item.origin}:${item.mode}:${item.subject}`);
          },
          { timeout: 90_000, message: 'the workflow drafts the reply' },
        )
        .toEqual([`workflow:draft:Re: ${subject}`]);
    });

    await test.step('the member opens Review, reads the draft, corrects it inline and sends it', async () => {
      const reviewer = member.page;
      await reviewer.goto('/');
      await reviewer.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Review', exact: true }).click();
      await expect(reviewer).toHaveURL(/\/review$/);
      await expect(reviewer.getByRole('heading', { name: 'Morning review' })).toBeVisible();
      const queue = reviewer.getByTestId('review-queue');
      await expect(queue.getByRole('heading', { name: account.user })).toBeVisible();
      await expect(queue.getByTestId('review-row')).toHaveCount(1);
      await queue.getByTestId('review-row').filter({ hasText: `Re: ${subject}` }).getByRole('button').first().click();
      await expect(reviewer.getByTestId('review-subject')).toHaveText(`Re: ${subject}`);
      await expect(reviewer.getByTestId('review-draft').getByTestId('message-frame')).toHaveAttribute('srcdoc', /Dear Alice Customer, about/);
      // The mail the draft answers, beside it (issue 19 §7).
      const original = reviewer.getByRole('region', { name: 'The message it answers' });
      await expect(original.getByTestId('review-original-subject')).toHaveText(subject);
      await expect(original.getByTestId('message-frame')).toHaveAttribute('srcdoc', /When does my order ship\?/);

      await reviewer.getByRole('button', { name: 'Correct' }).click();
      const form = reviewer.getByTestId('review-corrections');
      await expect(form.getByLabel('To', { exact: true })).toHaveValue('alice@customer.example.test');
      await form.getByLabel('Subject', { exact: true }).fill(correctedSubject);
      await form.getByLabel('Body (plain text)').fill(correctedBody);
      await form.getByRole('button', { name: 'Send' }).click();
      await expect(reviewer.getByTestId('review-notice')).toContainText('Queued for sending');
      await expect(reviewer.getByText('Nothing to review')).toBeVisible();
    });

    await test.step('the SMTP peer receives the corrected reply once, threaded under the original', async () => {
      await expect.poll(() => receivedFrom(account).length, { timeout: 60_000, message: 'the reply reaches the SMTP peer' }).toBe(1);
      const [received] = receivedFrom(account);
      expect(received.rcptTo).toEqual(['alice@customer.example.test']);
      const mail = await parsed(received);
      expect(mail.subject).toBe(correctedSubject);
      expect(mail.inReplyTo).toBe(originalMessageId);
      expect([mail.references ?? []].flat()).toContain(originalMessageId);
      expect(mail.text ?? '').toContain(correctedBody);
      expect(mail.text ?? '').not.toContain('we will come back to you');
      expect(mail.from?.value[0]?.address).toBe(account.user);

      // Proving nothing more leaves: a few more seconds, and still exactly one.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(receivedFrom(account)).toHaveLength(1);
    });

    await test.step('the review item is sent and delivered', async () => {
      await expect
        .poll(
          async () => {
            const answer = await member.context.request.get(`/api/v1/review?workflowId=${workflowId}&status=all`);
            const { items } = (await answer.json()) as { items: { reviewStatus: string; sendStatus: string; subject: string }[] };
            return items.map((item) => `${item.reviewStatus}:${item.sendStatus}:${item.subject}`);
          },
          { timeout: 30_000 },
        )
        .toEqual([`sent:done:${correctedSubject}`]);
    });

    await test.step('the reply appears in the thread in the webmail (its sent copy synced from Sent)', async () => {
      const webmail = member.page;
      await webmail.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Messages' }).click();
      await expect(webmail.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
      const row = webmail.getByTestId('thread-row').filter({ hasText: subject });
      await expect(row).toBeVisible({ timeout: 30_000 });
      await row.click();
      const view = webmail.getByTestId('thread-view');
      await expect(view.getByTestId('message-item')).toHaveCount(2, { timeout: 60_000 });
      // The newest message (the reply) starts expanded: its body is in its sandboxed frame.
      await expect(view.getByTestId('message-item').last().getByTestId('message-frame')).toHaveAttribute('srcdoc', new RegExp(`your order ${stamp} ships on Monday`));
    });
  } finally {
    await member.context.close();
  }
});

test('a workflow asks an approval by email; the emailed link decides only after the confirmation click, and the run goes on', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const member = await newMember(page, browser, 'approver');
  const { stamp } = member;
  const account = accounts.approval;
  const request = member.context.request;

  try {
    const mailboxId = await connectTestMailbox(request, { dovecot, smtp }, account);
    await waitForFirstSync(request, mailboxId);

    const workflowId = await publishedWorkflow(request, `Refund approvals ${stamp}`, {
      nodes: [
        { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } },
        {
          id: 'ask',
          type: 'approval.request',
          version: 1,
          name: 'Ask',
          params: { title: 'Refund order {{ trigger.orderId }}', details: 'Customer: {{ trigger.customer }}', approverEmails: ['approver@example.test'], mailboxId },
          position: { x: 240, y: 0 },
        },
        { id: 'yes', type: 'data.set', version: 1, name: 'Approved', params: { fields: [{ name: 'branch', value: 'approved' }] }, position: { x: 480, y: -80 } },
        { id: 'no', type: 'data.set', version: 1, name: 'Rejected', params: { fields: [{ name: 'branch', value: 'rejected' }] }, position: { x: 480, y: 80 } },
      ],
      connections: [
        { from: 'hook', output: 'main', to: 'ask' },
        { from: 'ask', output: 'approve', to: 'yes' },
        { from: 'ask', output: 'reject', to: 'no' },
      ],
    });

    const executionId = await test.step('the webhook is called: the run waits for an approval', async () => {
      const hook = await request.post(`/api/v1/workflows/${workflowId}/webhook`, { data: {} });
      expect(hook.ok(), await hook.text()).toBe(true);
      const { url } = (await hook.json()) as { url: string };
      const started = await request.post(url, { data: { orderId: stamp, customer: 'Ada' } });
      expect(started.status()).toBe(202);
      const { executionId: id } = (await started.json()) as { executionId: string };
      await expect
        .poll(async () => ((await (await request.get(`/api/v1/executions/${id}`)).json()) as { status: string }).status, { timeout: 60_000 })
        .toBe('waiting');
      return id;
    });

    const approveLink = await test.step('the approval email goes out through the member’s mailbox to the approver', async () => {
      await expect.poll(() => receivedFrom(account).length, { timeout: 60_000, message: 'the approval email reaches the SMTP peer' }).toBe(1);
      const [received] = receivedFrom(account);
      expect(received.rcptTo).toEqual(['approver@example.test']);
      const mail = await parsed(received);
      expect(mail.subject).toContain(`Refund order ${stamp}`);
      expect(mail.from?.value[0]?.address).toBe(account.user);
      const links = [...(mail.text ?? '').matchAll(/Approve: (\S+)/g)].map((match) => match[1]);
      expect(links).toHaveLength(1);
      const link = links[0];
      expect(link).toMatch(/\/api\/v1\/approvals\/t\/[^/]+\/approve$/);
      // The HTML part carries the same link (its button).
      expect(mail.html || '').toContain(link);
      return link;
    });

    await test.step('opening the link shows the approval and a button, and decides nothing', async () => {
      // The approver is not signed in: a browser of their own.
      const approverContext = await browser.newContext({ locale: 'en-US' });
      try {
        const approver = await approverContext.newPage();
        const opened = await approver.goto(approveLink);
        expect(opened?.status()).toBe(200);
        await expect(approver.getByRole('heading', { name: 'Approve this request?' })).toBeVisible();
        await expect(approver.getByRole('heading', { name: `Refund order ${stamp}` }).first()).toBeVisible();
        await expect(approver.getByText('Customer: Ada').first()).toBeVisible();
        await expect(approver.getByText('Nothing is decided until you press the button below.')).toBeVisible();
        const button = approver.getByRole('button', { name: 'Approve / Approuver' });
        await expect(button).toBeVisible();

        // Still pending: the GET alone decided nothing (link scanners fetch every link).
        const pending = await request.get('/api/v1/approvals?status=pending');
        const { approvals } = (await pending.json()) as { approvals: { executionId: string; status: string }[] };
        expect(approvals.filter((approval) => approval.executionId === executionId).map((approval) => approval.status)).toEqual(['pending']);
        expect(((await (await request.get(`/api/v1/executions/${executionId}`)).json()) as { status: string }).status).toBe('waiting');

        await button.click();
        await expect(approver.getByRole('heading', { name: 'Approved', exact: true })).toBeVisible();
        await expect(approver.getByText('Thank you: the request is approved and the workflow continues.')).toBeVisible();
      } finally {
        await approverContext.close();
      }
    });

    await test.step('the run continues on the approve branch and succeeds', async () => {
      await expect
        .poll(async () => ((await (await request.get(`/api/v1/executions/${executionId}`)).json()) as { status: string }).status, { timeout: 60_000 })
        .toBe('succeeded');
      const detail = (await (await request.get(`/api/v1/executions/${executionId}`)).json()) as { steps: { nodeId: string; status: string }[] };
      const byNode = Object.fromEntries(detail.steps.map((step) => [step.nodeId, step.status]));
      expect(byNode).toMatchObject({ hook: 'succeeded', ask: 'succeeded', yes: 'succeeded' });
      expect(byNode.no ?? 'skipped').toBe('skipped');
      const approved = await request.get('/api/v1/approvals?status=approved');
      const { approvals } = (await approved.json()) as { approvals: { executionId: string; decidedBy: string | null }[] };
      expect(approvals.filter((approval) => approval.executionId === executionId).map((approval) => approval.decidedBy)).toEqual(['approver@example.test']);

      await member.page.goto(`/executions/${executionId}`);
      await expect(member.page.getByTestId('execution-detail-status')).toHaveText('Succeeded');
    });
  } finally {
    await member.context.close();
  }
});

/** The instance's undo window (SEND_UNDO_SECONDS: 10 by default, 5 in playwright.config.ts). */
const undoWindowMs = 5_000;

test('a reply from the webmail leaves after the undo window; a second reply undone within it never leaves', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const member = await newMember(page, browser, 'replier');
  const { stamp } = member;
  const account = accounts.webmail;
  const subject = `Meeting on Thursday ${stamp}`;
  const originalMessageId = `<meeting-${stamp}@partner.example.test>`;
  const firstReply = `Thursday at ten suits me (${stamp}).`;
  const secondReply = `On second thought, never mind (${stamp}).`;
  const webmail = member.page;
  /** When the second reply's Send was clicked: its undo window started then. */
  let secondSentAt = 0;

  try {
    const mailboxId = await connectTestMailbox(member.context.request, { dovecot, smtp }, account);
    await waitForFirstSync(member.context.request, mailboxId);
    await appendMessage({
      server: dovecot,
      ...account,
      raw: await buildRawMessage({ from: 'Bob Partner <bob@partner.example.test>', to: account.user, subject, messageId: originalMessageId, text: 'Shall we meet on Thursday?' }),
    });
    await waitForMirrored(member.context.request, mailboxId, subject);

    const view = webmail.getByTestId('thread-view');
    const toast = webmail.getByTestId('send-toast');

    await test.step('the member opens the delivered mail and replies; the undo toast shows while nothing has left', async () => {
      await webmail.goto('/');
      await webmail.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Messages' }).click();
      const row = webmail.getByTestId('thread-row').filter({ hasText: subject });
      await expect(row).toBeVisible({ timeout: 60_000 });
      await row.click();
      await expect(view.getByRole('heading', { name: subject })).toBeVisible();
      await openComposeFrom(webmail, view.getByTestId('answer-reply'));
      await expect(webmail.getByTestId('compose-to')).toHaveValue('bob@partner.example.test');
      await expect(webmail.getByTestId('compose-subject')).toHaveValue(`Re: ${subject}`);
      await webmail.getByTestId('compose-body').press('Control+Home');
      await webmail.getByTestId('compose-body').pressSequentially(firstReply + ' ');
      await webmail.getByTestId('compose-form').getByRole('button', { name: 'Send' }).click();
      await expect(toast).toContainText('Sending…');
      await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
      // Within the undo window: nothing has reached the peer.
      expect(receivedFrom(account)).toHaveLength(0);
    });

    await test.step('after the undo window the peer receives the reply, threaded', async () => {
      await expect(toast).toContainText('Message sent.', { timeout: 30_000 });
      await expect.poll(() => receivedFrom(account).length, { timeout: 60_000, message: 'the reply reaches the SMTP peer' }).toBe(1);
      const [received] = receivedFrom(account);
      expect(received.rcptTo).toEqual(['bob@partner.example.test']);
      const mail = await parsed(received);
      expect(mail.subject).toBe(`Re: ${subject}`);
      expect(mail.inReplyTo).toBe(originalMessageId);
      expect(mail.text ?? '').toContain(firstReply);
    });

    await test.step('a second reply is undone within the window: the toast says so', async () => {
      await expect(toast).toHaveCount(0, { timeout: 15_000 });
      await openComposeFrom(webmail, view.getByTestId('answer-reply').last());
      await webmail.getByTestId('compose-to').fill('bob@partner.example.test');
      await webmail.getByTestId('compose-body').press('Control+Home');
      await webmail.getByTestId('compose-body').pressSequentially(secondReply + ' ');
      secondSentAt = Date.now();
      await webmail.getByTestId('compose-form').getByRole('button', { name: 'Send' }).click();
      await expect(toast).toContainText('Sending…');
      await toast.getByRole('button', { name: 'Undo' }).click();
      await expect(toast).toContainText('Sending cancelled.');
    });

    await test.step('the undone reply never reaches the peer (waited past the window and a margin)', async () => {
      // Proving something did NOT happen: until the 5 s window of the undone send has passed, plus a margin
      // for the runner to pick up the send it had scheduled for the window's end (graphile polls every 2 s).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, secondSentAt + undoWindowMs + 6_000 - Date.now())));
      const received = receivedFrom(account);
      expect(received).toHaveLength(1);
      for (const message of received) expect(message.raw.toString('utf8')).not.toContain('never mind');
    });
  } finally {
    await member.context.close();
  }
});
