/**
 * Journeys of the dashboard's drill-down targets (issue 20): the lists its bars and rows link to open
 * exactly what was counted.
 *  (a) a member's two webhook workflows run (one succeeds, one fails, and the failing one succeeded
 *      once before its sink broke): `/executions?workflowId=<failing>&status=failed&from=…&to=…` lists
 *      only that workflow's failed runs and shows the window as a chip in the reader's zone; a window
 *      before the runs lists nothing, and removing its chip brings them back (the other filters stay);
 *      in French the chip reads in French;
 *  (b) real mail through Dovecot that no workflow takes: `/journal?outcome=unmatched` lists it with the
 *      "Matched no workflow" badge, in French "Aucun workflow correspondant".
 * The sink listens on 127.0.0.1: the instance allows it with HTTP_NODE_ALLOW_HOSTS (playwright.config.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { createFromJson, publish, webhookUrl } from '../fixtures/workflows';

const webhookNode = { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } };

/** A local HTTP endpoint answering the status the test sets. */
async function startSink(): Promise<{ url: string; setStatus: (status: number) => void; close: () => Promise<void> }> {
  let status = 200;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: status < 400 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    setStatus: (next) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Starts a run over the webhook and waits until it has finished with the expected status. */
async function run(request: APIRequestContext, url: string, expected: 'succeeded' | 'failed'): Promise<string> {
  const started = await request.post(url, { data: { orderId: 1 } });
  expect(started.status()).toBe(202);
  const { executionId } = (await started.json()) as { executionId: string };
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/v1/executions/${executionId}`);
        return ((await answer.json()) as { status: string }).status;
      },
      { timeout: 60_000, message: `run ${executionId} finishes` },
    )
    .toBe(expected);
  return executionId;
}

/** The chip's bound as the reader's browser writes it, by its own clock: "Mar 28, 00:00" / "28 mars, 00:00". */
async function boundInBrowser(page: Page, iso: string, locale: 'en' | 'fr'): Promise<string> {
  return page.evaluate(
    ({ iso, locale }) => {
      const date = new Date(iso);
      const time = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
      const month = date.toLocaleDateString(locale === 'fr' ? 'fr-FR' : 'en-US', { month: 'short' });
      return locale === 'fr' ? `${date.getDate()} ${month}, ${time}` : `${month} ${date.getDate()}, ${time}`;
    },
    { iso, locale },
  );
}

async function pickInUserMenu(page: Page, memberName: string, entry: string) {
  await page.getByRole('button', { name: new RegExp(memberName) }).first().click();
  await page.getByRole('menuitemradio', { name: entry, exact: true }).click();
  await expect(page.getByRole('menu')).toBeHidden();
}

test('a failing workflow’s bar opens its failed runs of that window, shown as a chip that can be removed', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const sink = await startSink();
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  // A member of their own: the lists hold this journey's runs only.
  const memberName = 'Dora Drill';
  const context = await signedInMember(browser, page.request, { email: `drill-${stamp}@e2e.test`, name: memberName, password: 'drill-down-password-42' });
  const member = await context.newPage();
  try {
    const failingName = `Forward to CRM ${stamp}`;
    const passingName = `Log orders ${stamp}`;
    await member.goto('/');
    const passingId = await createFromJson(member, passingName, { nodes: [webhookNode], connections: [] });
    await publish(member, 'Log');
    const passingUrl = await webhookUrl(member);
    const failingId = await createFromJson(member, failingName, {
      nodes: [
        webhookNode,
        {
          id: 'forward',
          type: 'http.request',
          version: 1,
          name: 'Forward',
          params: { method: 'POST', url: sink.url, body: { type: 'json', json: { forwarded: true } } },
          // One attempt: the sink's 500 fails the run at once instead of after the built-in retries.
          retry: { maxAttempts: 1, delayMs: 1_000 },
          position: { x: 300, y: 0 },
        },
      ],
      connections: [{ from: 'hook', output: 'main', to: 'forward' }],
    });
    await publish(member, 'Forward');
    const failingUrl = await webhookUrl(member);
    expect(passingId).not.toBe(failingId);

    const api = context.request;
    await run(api, passingUrl, 'succeeded');
    await run(api, failingUrl, 'succeeded');
    sink.setStatus(500);
    const failed = [await run(api, failingUrl, 'failed'), await run(api, failingUrl, 'failed')];

    // The bucket the dashboard links: whole hours around the runs.
    const hour = 3_600_000;
    const now = Date.now();
    const from = new Date(Math.floor(now / hour) * hour - hour).toISOString();
    const to = new Date(Math.floor(now / hour) * hour + 2 * hour).toISOString();

    await test.step('the link lists only the failing workflow’s failed runs, with the window as a chip', async () => {
      await member.goto(`/executions?workflowId=${failingId}&status=failed&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
      await expect(member.getByRole('heading', { name: 'Executions', level: 1 })).toBeVisible();
      const rows = member.getByTestId('execution-row');
      await expect(rows).toHaveCount(2, { timeout: 30_000 });
      for (const row of await rows.all()) {
        await expect(row).toHaveAttribute('data-status', 'failed');
        await expect(row).toContainText(failingName);
      }
      await expect(member.locator(`a[href="/executions/${failed[0]}"]`)).toBeVisible();
      await expect(member.locator(`a[href="/executions/${failed[1]}"]`)).toBeVisible();
      // The filters show what the link asked for (each select is found by one of its options).
      await expect(member.locator(`select:has(option[value="${failingId}"])`)).toHaveValue(failingId);
      await expect(member.locator('select:has(option[value="cancelled"])')).toHaveValue('failed');
      await expect(member.getByTestId('window-chip-label')).toHaveText(`${await boundInBrowser(member, from, 'en')} → ${await boundInBrowser(member, to, 'en')}`);
    });

    await test.step('a window before the runs lists nothing; removing its chip lists them, the other filters kept', async () => {
      const before = { from: new Date(Math.floor(now / hour) * hour - 5 * hour).toISOString(), to: new Date(Math.floor(now / hour) * hour - 4 * hour).toISOString() };
      await member.goto(`/executions?workflowId=${failingId}&status=failed&from=${encodeURIComponent(before.from)}&to=${encodeURIComponent(before.to)}`);
      // Generous waits after each navigation: the machine running the journeys can be slow to answer.
      await expect(member.getByTestId('list-empty')).toContainText('No run matches these filters', { timeout: 30_000 });
      await member.getByRole('button', { name: 'Remove the time window filter' }).click();
      await expect(member.getByTestId('window-chip')).toHaveCount(0);
      await expect(member).toHaveURL(new RegExp(`/executions\\?workflowId=${failingId}&status=failed$`));
      await expect(member.getByTestId('execution-row')).toHaveCount(2, { timeout: 30_000 });
    });

    await test.step('in French the chip reads in French', async () => {
      await member.goto(`/executions?workflowId=${failingId}&status=failed&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
      await pickInUserMenu(member, memberName, 'Français');
      await expect(member.getByRole('heading', { name: 'Exécutions', level: 1 })).toBeVisible({ timeout: 30_000 });
      await expect(member.getByTestId('window-chip-label')).toHaveText(`${await boundInBrowser(member, from, 'fr')} → ${await boundInBrowser(member, to, 'fr')}`);
      await expect(member.getByRole('button', { name: 'Retirer le filtre de période' })).toBeVisible();
      await pickInUserMenu(member, memberName, 'English');
    });
  } finally {
    await context.close();
    await sink.close();
  }
});

const account: MailUser = { user: 'drill-journal@example.test', password: 'drill-journal-imap-password' };

test.describe('the message journal', () => {
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

  test('a mail that matched no workflow is listed under “Matched no workflow”', async ({ page, browser }) => {
    test.setTimeout(240_000);
    const stamp = Date.now().toString(36);
    const memberName = 'Jules Journal';
    await signIn(page, e2eAdmin.email, e2eAdmin.password);
    const context = await signedInMember(browser, page.request, { email: `journal-${stamp}@e2e.test`, name: memberName, password: 'journal-password-42' });
    const member = await context.newPage();
    try {
      const api = context.request;
      const mailboxId = await connectTestMailbox(api, { dovecot, smtp }, account);
      await waitForFirstSync(api, mailboxId);

      await member.goto('/journal');
      await expect(member.getByRole('heading', { name: 'Message journal', level: 1 })).toBeVisible();
      await expect(member.getByTestId('list-empty')).toContainText('The journal records each new mail');

      const subject = `A question with no workflow ${stamp}`;
      await appendMessage({
        server: dovecot,
        ...account,
        raw: await buildRawMessage({ to: account.user, from: 'Carla Client <carla@client.example.test>', subject, text: 'Could you send me the offer again?' }),
      });
      await waitForMirrored(api, mailboxId, subject);
      await expect
        .poll(
          async () => {
            const answer = await api.get('/api/v1/journal?outcome=unmatched');
            const { entries } = (await answer.json()) as { entries: { subject: string | null }[] };
            return entries.some((entry) => entry.subject === subject);
          },
          { timeout: 90_000, message: 'dispatch journals the new mail' },
        )
        .toBe(true);

      const hour = 3_600_000;
      const from = new Date(Math.floor(Date.now() / hour) * hour - hour).toISOString();
      const to = new Date(Math.floor(Date.now() / hour) * hour + 2 * hour).toISOString();
      await member.goto(`/journal?outcome=unmatched&mailboxId=${mailboxId}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
      const entry = member.getByTestId('journal-entry').filter({ hasText: subject });
      await expect(entry).toHaveCount(1);
      await expect(entry).toHaveAttribute('data-outcome', 'unmatched');
      await expect(entry.getByTestId('journal-outcome')).toHaveText('Matched no workflow');
      await expect(entry).toContainText('From carla@client.example.test');
      await expect(entry).toContainText(account.user);
      await expect(member.getByTestId('journal-outcome-filter')).toHaveValue('unmatched');
      await expect(member.getByTestId('journal-mailbox-filter')).toHaveValue(mailboxId);
      await expect(member.getByTestId('window-chip-label')).toHaveText(`${await boundInBrowser(member, from, 'en')} → ${await boundInBrowser(member, to, 'en')}`);

      await test.step('another outcome lists nothing of it, and the choice goes to the URL', async () => {
        await member.getByTestId('journal-outcome-filter').selectOption('guardrail');
        await expect(member).toHaveURL(/outcome=guardrail/);
        await expect(member.getByTestId('list-empty')).toContainText('No entry matches these filters');
      });

      await test.step('the journal is in the navigation, and in French', async () => {
        await member.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Message journal' }).click();
        await expect(member).toHaveURL(/\/journal$/);
        await expect(member.getByTestId('journal-entry').filter({ hasText: subject })).toHaveCount(1);
        await pickInUserMenu(member, memberName, 'Français');
        await expect(member.getByRole('heading', { name: 'Journal des messages', level: 1 })).toBeVisible();
        await expect(member.getByTestId('journal-entry').filter({ hasText: subject }).getByTestId('journal-outcome')).toHaveText('Aucun workflow correspondant');
        await pickInUserMenu(member, memberName, 'English');
      });
    } finally {
      await context.close();
    }
  });
});
