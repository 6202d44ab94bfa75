/**
 * Journeys of "why didn't it run?" (issue 19 §3), against a real Dovecot:
 *  (a) a member publishes a mail workflow (which skips automatic mail, as every mail trigger does by
 *      default); an out-of-office auto-reply (`Auto-Submitted: auto-replied`) arrives: opened in the
 *      webmail, the automation panel under it says no workflow started and why, and names the option
 *      to turn on; a person's mail arrives too: its panel says the workflow started and links to the run;
 *  (b) "Try on my mail" over a mailbox holding auto-replies and list mail: each such case shows its
 *      reason sentence, the reasons summary reads "N skipped: …; include …?", and its button turns the
 *      trigger option on in the draft (read back through the API); tried again, those cases run.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { draftOf } from '../fixtures/builder';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { createFromJson, publish } from '../fixtures/workflows';

const panelAccount: MailUser = { user: 'why-panel@example.test', password: 'why-panel-imap-password' };
const evalAccount: MailUser = { user: 'why-eval@example.test', password: 'why-eval-imap-password' };

let dovecot: DovecotServer;
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  dovecot = await startDovecot({ users: [panelAccount, evalAccount] });
  smtp = await startSmtpServer({ users: [panelAccount, evalAccount], tls: 'none' });
});

test.afterAll(async () => {
  await smtp?.stop();
  await dovecot?.stop();
});

/** Creates the workflow (fixtures/workflows.ts) and waits until its page shows it. */
async function createShown(page: Page, name: string, graph: unknown): Promise<string> {
  const id = await createFromJson(page, name, graph);
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible({ timeout: 30_000 });
  return id;
}

/** A mail trigger with its default options (automatic, no-reply and list mail left out) and nothing else. */
const mailTriggerGraph = {
  nodes: [{ id: 'mail', type: 'trigger.mail', version: 1, name: 'Incoming mail', params: {}, position: { x: 0, y: 0 } }],
  connections: [],
};

async function deliver(account: MailUser, fields: { from: string; subject: string; text: string; headers?: Record<string, string> }) {
  await appendMessage({ server: dovecot, ...account, raw: await buildRawMessage({ to: account.user, ...fields }) });
}

const autoReply = (subject: string) => ({
  from: 'Omar Away <omar@partner.example.test>',
  subject,
  text: 'I am out of the office until Monday and will answer when I am back.',
  headers: { 'Auto-Submitted': 'auto-replied' },
});

/** The mirrored message's id, by subject. */
async function messageIdOf(request: APIRequestContext, mailboxId: string, subject: string): Promise<string> {
  const answer = await request.get(`/api/v1/messages?mailboxId=${mailboxId}&limit=50`);
  const { messages } = (await answer.json()) as { messages: { id: string; subject: string | null }[] };
  const found = messages.find((message) => message.subject === subject);
  expect(found, `the mail “${subject}” is mirrored`).toBeTruthy();
  return found!.id;
}

/** Waits until dispatch has handled the message (its journal has an entry). */
async function waitForJournal(request: APIRequestContext, messageId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/v1/messages/${messageId}/journal`);
        if (answer.status() !== 200) return `status ${answer.status()}`;
        const { entry } = (await answer.json()) as { entry: { outcome: string } | null };
        return entry ? 'handled' : 'not yet';
      },
      { timeout: 90_000, message: 'dispatch handles the new mail' },
    )
    .toBe('handled');
}

test('a mail that started nothing shows why in the reading pane', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const name = `Answer my mail ${stamp}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `why-panel-${stamp}@e2e.test`, name: 'Wyn Panel', password: 'why-panel-password-42' });
  const member = await context.newPage();
  try {
    const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, panelAccount);
    await waitForFirstSync(context.request, mailboxId);

    await member.goto('/');
    await createShown(member, name, mailTriggerGraph);
    await publish(member, 'Every new mail');

    const away = `Out of office ${stamp}`;
    const person = `Question about the offer ${stamp}`;
    await deliver(panelAccount, autoReply(away));
    await deliver(panelAccount, { from: 'Carla Client <carla@client.example.test>', subject: person, text: 'Could you send me the offer again?' });
    await waitForMirrored(context.request, mailboxId, away);
    await waitForMirrored(context.request, mailboxId, person);
    const awayId = await messageIdOf(context.request, mailboxId, away);
    const personId = await messageIdOf(context.request, mailboxId, person);
    await waitForJournal(context.request, awayId);
    await waitForJournal(context.request, personId);

    await member.goto('/messages');
    await expect(member.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();

    await test.step('the auto-reply’s panel says no workflow started, why, and the option to turn on', async () => {
      await member.getByTestId('thread-row').filter({ hasText: away }).click();
      const view = member.getByTestId('thread-view');
      await expect(view.getByRole('heading', { name: away })).toBeVisible();
      const panel = view.getByTestId('automation-panel');
      await expect(panel.getByTestId('automation-outcome')).toHaveText(
        'No workflow started: it is an automatic reply (out of office or similar) and this workflow skips automatic mail.',
        { timeout: 30_000 },
      );
      await panel.getByText('Automation', { exact: true }).click();
      const line = panel.getByTestId('automation-workflow').filter({ hasText: name });
      await expect(line).toBeVisible();
      await expect(line.getByRole('link', { name })).toBeVisible();
      await expect(line.getByTestId('automation-reason')).toHaveText(
        'Not started: it is an automatic reply (out of office or similar) and this workflow skips automatic mail.',
      );
      await expect(line).toContainText('To let such mail in, turn on “Include automatic mail” in its trigger.');
      await expect(line.getByTestId('automation-run')).toHaveCount(0);
    });

    await test.step('the person’s mail: the panel says it started and links to the run', async () => {
      await member.getByTestId('thread-row').filter({ hasText: person }).click();
      const view = member.getByTestId('thread-view');
      await expect(view.getByRole('heading', { name: person })).toBeVisible();
      const panel = view.getByTestId('automation-panel');
      await expect(panel.getByTestId('automation-outcome')).toHaveText('Started 1 workflow.', { timeout: 30_000 });
      await panel.getByText('Automation', { exact: true }).click();
      const line = panel.getByTestId('automation-workflow').filter({ hasText: name });
      await expect(line).toContainText('Started');
      await expect(line.getByTestId('automation-reason')).toHaveCount(0);
      const run = line.getByTestId('automation-run');
      await expect(run).toHaveCount(1);
      await expect(run).toContainText('Run of ');
      await run.click();
      await expect(member).toHaveURL(/\/executions\/[0-9a-f-]{36}$/);
      await expect(member.getByTestId('execution-detail-status')).toHaveText('Succeeded', { timeout: 30_000 });
    });
  } finally {
    await context.close();
  }
});

test('Try on my mail shows per-case reasons and turns the trigger option on', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const name = `Sort my mail ${stamp}`;
  const person = `Meeting notes ${stamp}`;
  const away = [`Out of office ${stamp}-1`, `Out of office ${stamp}-2`];
  const list = `[dev-list] Release plan ${stamp}`;
  // Already in the mailbox when it is connected: "Try on my mail" runs over the mirrored mail.
  await deliver(evalAccount, { from: 'Dana Colleague <dana@work.example.test>', subject: person, text: 'Here are the notes.' });
  for (const subject of away) await deliver(evalAccount, autoReply(subject));
  await deliver(evalAccount, {
    from: 'Lee Developer <lee@dev.example.test>',
    subject: list,
    text: 'The plan for the next release.',
    headers: { 'List-ID': '<dev.lists.example.test>', 'List-Post': '<mailto:dev@lists.example.test>' },
  });

  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `why-eval-${stamp}@e2e.test`, name: 'Eva Try', password: 'why-eval-password-42' });
  const member = await context.newPage();
  try {
    const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, evalAccount);
    await waitForFirstSync(context.request, mailboxId);
    for (const subject of [person, ...away, list]) await waitForMirrored(context.request, mailboxId, subject);

    await member.goto('/');
    const workflowId = await createShown(member, name, mailTriggerGraph);

    await test.step('each case left out shows its reason; the summary asks to include them', async () => {
      await member.getByRole('tab', { name: 'Try on my mail' }).click();
      await member.getByTestId('eval-start').click();
      await expect(member.getByTestId('eval-summary')).toContainText('Would trigger on 1 of 4', { timeout: 90_000 });
      const rows = member.getByTestId('eval-case-row');
      await expect(rows).toHaveCount(4);
      for (const subject of away) {
        await expect(rows.filter({ hasText: subject }).getByTestId('eval-case-reason')).toHaveText(
          'Would not run: it is an automatic reply (out of office or similar) and this workflow skips automatic mail.',
        );
      }
      await expect(rows.filter({ hasText: list }).getByTestId('eval-case-reason')).toHaveText('Would not run: the sender is a mailing list and this workflow skips list mail.');
      await expect(rows.filter({ hasText: person }).getByTestId('eval-case-reason')).toHaveCount(0);

      const reasons = member.getByRole('region', { name: 'Why cases would not run' });
      await expect(reasons).toBeVisible();
      const lines = reasons.getByTestId('eval-reason');
      await expect(lines).toHaveCount(2);
      // The most frequent reason first.
      await expect(lines.nth(0)).toContainText('2 skipped: automatic mail guardrail; include automatic mail?');
      await expect(lines.nth(1)).toContainText('1 skipped: list mail guardrail; include list and bulk mail?');
      await expect(lines.nth(0).getByRole('button', { name: 'Turn on “Include automatic mail”' })).toBeVisible();
      await expect(lines.nth(1).getByRole('button', { name: 'Turn on “Include list and bulk mail”' })).toBeVisible();
    });

    await test.step('its button turns the option on in the draft', async () => {
      const before = await draftOf(context.request, workflowId);
      expect(before.graph.nodes.find((candidate) => candidate.type === 'trigger.mail')!.params.includeAutoReplies).not.toBe(true);
      const button = member.getByRole('button', { name: 'Turn on “Include automatic mail”' });
      await button.click();
      await expect(member.getByTestId('eval-included')).toHaveText('The draft now has “Include automatic mail” on. Try again to see what it would do.', { timeout: 30_000 });
      await expect(button).toBeDisabled();
      const after = await draftOf(context.request, workflowId);
      const trigger = after.graph.nodes.find((candidate) => candidate.type === 'trigger.mail')!;
      expect(trigger.params.includeAutoReplies).toBe(true);
      expect(trigger.params.includeMailingLists).not.toBe(true);
      expect(after.draftRevision).toBeGreaterThan(before.draftRevision);
    });

    await test.step('tried again, the auto-replies run; the list mail still says why not', async () => {
      await member.getByTestId('eval-start').click();
      await expect(member.getByTestId('eval-summary')).toContainText('Would trigger on 3 of 4', { timeout: 90_000 });
      const rows = member.getByTestId('eval-case-row');
      await expect(rows).toHaveCount(4);
      for (const subject of away) await expect(rows.filter({ hasText: subject }).getByTestId('eval-case-reason')).toHaveCount(0);
      await expect(rows.filter({ hasText: list }).getByTestId('eval-case-reason')).toHaveText('Would not run: the sender is a mailing list and this workflow skips list mail.');
      const lines = member.getByTestId('eval-reason');
      await expect(lines).toHaveCount(1);
      await expect(lines.first()).toContainText('1 skipped: list mail guardrail; include list and bulk mail?');
    });
  } finally {
    await context.close();
  }
});
