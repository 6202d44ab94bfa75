/**
 * The dashboard (issue 20, "The page a member lands on"). Each journey signs in a member of its own,
 * so its figures are its own whatever other specs did on the shared instance (scope `me`):
 * - a newcomer (nothing yet) sees the teaching empty state and the "Get started" list, has no scope
 *   switch, and the API refuses them the organisation (403);
 * - after real webhook runs (one workflow that succeeds, one that fails) the cards show what the API
 *   answers, refreshed live without a reload; the failing workflow's row opens the executions list
 *   filtered to it; the runs chart has a table view; the failure is acknowledged in place;
 *   the first render time is measured (navigation timing + the KPI cards' mark) and printed;
 * - after real mail through a test Dovecot and real AI calls to a fake vendor (a mail workflow that
 *   classifies with AI and drafts a reply; an unmatched mail, an auto-reply and a newsletter beside it),
 *   the mail and AI cards, the mail chart's table and the AI breakdowns show what the API answers (not
 *   zero), the mailbox health panel lists the mailbox as healthy, and the chart's dispatched count opens
 *   the message journal filtered to that outcome, listing the mail;
 * - in French and dark.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { appendMessage, buildRawMessage } from '@/server/testing/mail-servers/deliver';
import { startDovecot, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer } from '@/server/testing/mail-servers/smtp';
import { startFakeVendor } from '../../server/testing/ai-fakes';
import { addFakeConnection, removeConnection, routePurpose } from '../fixtures/ai';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';

/** The shared machine can be slow to render a first page (several journeys' builds and browsers at once). */
const firstRender = { timeout: 90_000 };

const webhookNode = { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Incoming call', params: {}, position: { x: 0, y: 0 } };

async function newMember(page: Page, browser: import('@playwright/test').Browser, prefix: string, name: string) {
  const login = await page.request.post('/api/v1/auth/login', { data: e2eAdmin });
  expect(login.ok(), await login.text()).toBe(true);
  const stamp = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const context = await signedInMember(browser, page.request, { email: `${prefix}-${stamp}@e2e.test`, name, password: `${prefix}-password-42` });
  return { context, stamp };
}

/** A published webhook workflow of the member's; answers its id and webhook URL. */
async function webhookWorkflow(request: APIRequestContext, name: string, step: unknown): Promise<{ id: string; url: string }> {
  const created = await request.post('/api/v1/workflows', {
    data: { name, graph: { nodes: [webhookNode, step], connections: [{ from: 'hook', output: 'main', to: (step as { id: string }).id }] } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { workflow: { id: string } }).workflow.id;
  const published = await request.post(`/api/v1/workflows/${id}/publish`, { data: { note: 'Dashboard journey' } });
  expect(published.ok(), await published.text()).toBe(true);
  const hook = await request.post(`/api/v1/workflows/${id}/webhook`);
  expect(hook.ok(), await hook.text()).toBe(true);
  return { id, url: ((await hook.json()) as { url: string }).url };
}

const count = (value: number) => new Intl.NumberFormat('en-GB').format(value);
const rate = (value: number | null) => (value === null ? '—' : new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 }).format(value));
const usd = (value: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: value > 0 && value < 0.01 ? 4 : 2 }).format(value);

test('a newcomer sees what to do first, and no organisation scope', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const { context } = await newMember(page, browser, 'dash-new', 'Nina Newcomer');
  const member = await context.newPage();
  await member.goto('/');
  await expect(member.getByTestId('dashboard-empty')).toBeVisible(firstRender);
  await expect(member.getByTestId('get-started')).toBeVisible();
  // The "Get started" list is on top of the page, above the teaching state.
  const listBox = await member.getByTestId('get-started').boundingBox();
  const emptyBox = await member.getByTestId('dashboard-empty').boundingBox();
  expect(listBox!.y).toBeLessThan(emptyBox!.y);
  await expect(member.getByTestId('dashboard-empty').getByRole('link', { name: 'Connect a mailbox' })).toHaveAttribute('href', '/settings/mailboxes');
  await expect(member.getByTestId('kpi-cards')).toHaveCount(0);

  // A member has no scope switch, and the API refuses the organisation's figures.
  await expect(member.getByTestId('dashboard-scope')).toHaveCount(0);
  const refused = await member.request.get('/api/v1/dashboard/executions?scope=org');
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('dashboard.forbidden');
  // An administrator's shared address asking for the organisation shows the member their own figures.
  await member.goto('/?scope=org&period=24h');
  await expect(member.getByTestId('dashboard-empty')).toBeVisible(firstRender);
  await expect(member.getByTestId('dashboard-error')).toHaveCount(0);
  await expect(member.getByTestId('dashboard-period')).toHaveValue('24h');
  await context.close();
});

test('after real runs the cards show the API’s figures, live, and the failing workflow opens its runs', async ({ page, browser }) => {
  test.setTimeout(480_000);
  const { context, stamp } = await newMember(page, browser, 'dash-runs', 'Rita Runs');
  const member = await context.newPage();
  const succeeding = await webhookWorkflow(context.request, `Tag orders ${stamp}`, {
    id: 'tag',
    type: 'data.set',
    version: 1,
    name: 'Tag',
    params: { fields: [{ name: 'tagged', value: 'yes' }] },
    position: { x: 240, y: 0 },
  });
  const failing = await webhookWorkflow(context.request, `Forward orders ${stamp}`, {
    id: 'forward',
    type: 'http.request',
    version: 1,
    name: 'Forward',
    // Nothing listens on port 1: the step fails at once (one attempt, no retries).
    params: { method: 'POST', url: 'http://127.0.0.1:1/orders', body: { type: 'json', json: { forwarded: true } } },
    retry: { maxAttempts: 1, delayMs: 1_000 },
    position: { x: 240, y: 0 },
  });

  await member.goto('/');
  await expect(member.getByTestId('dashboard-empty')).toBeVisible(firstRender);
  // The shell's live channel is up before the runs start, so their end reaches this page.
  await expect(member.getByTestId('dashboard-live')).toBeVisible(firstRender);

  for (const [url, body] of [
    [succeeding.url, { order: 1 }],
    [succeeding.url, { order: 2 }],
    [failing.url, { order: 3 }],
  ] as const) {
    const started = await context.request.post(url, { data: body });
    expect(started.status()).toBe(202);
  }

  await test.step('the runs end and the page shows them without a reload', async () => {
    await expect(member.getByTestId('kpi-runs-value')).toHaveText('3', { timeout: 90_000 });
    await expect(member.getByTestId('kpi-successRate-value')).toHaveText(rate(2 / 3), { timeout: 30_000 });
  });

  await test.step('each card shows what the API answers', async () => {
    const query = `period=7d&tz=${encodeURIComponent(await member.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone))}`;
    const [executions, mail, ai] = await Promise.all(
      ['executions', 'mail', 'ai'].map(async (route) => {
        const answer = await context.request.get(`/api/v1/dashboard/${route}?${query}`);
        expect(answer.status(), await answer.text()).toBe(200);
        return answer.json();
      }),
    );
    expect(executions.current.total).toBe(3);
    await expect(member.getByTestId('kpi-runs-value')).toHaveText(count(executions.current.total));
    await expect(member.getByTestId('kpi-successRate-value')).toHaveText(rate(executions.current.successRate));
    await expect(member.getByTestId('kpi-mailReceived-value')).toHaveText(count(mail.current.received));
    const dispatched = (mail.current.byOutcome as { outcome: string; count: number }[]).find((entry) => entry.outcome === 'dispatched')?.count ?? 0;
    await expect(member.getByTestId('kpi-dispatched-value')).toHaveText(count(dispatched));
    await expect(member.getByTestId('kpi-draftsPrepared-value')).toHaveText(count(mail.current.draftsPrepared));
    await expect(member.getByTestId('kpi-sentByWorkflows-value')).toHaveText(count(mail.current.sentByWorkflows));
    await expect(member.getByTestId('kpi-aiSpend-value')).toHaveText(usd(ai.current.costUsd));
    // The previous period had nothing: no percentage, a dash.
    await expect(member.getByTestId('kpi-runs-change')).toContainText('—');
  });

  await test.step('the runs chart has a table view whose cells open the runs of their bucket', async () => {
    await member.getByTestId('chart-runs-toggle').click();
    const table = member.getByTestId('chart-runs').getByRole('table', { name: 'Runs by status' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Failed' })).toBeVisible();
    const link = table.getByRole('link', { name: /Open the failed runs/ }).first();
    const href = new URL((await link.getAttribute('href'))!, 'http://x');
    expect(href.pathname).toBe('/executions');
    expect(href.searchParams.get('status')).toBe('failed');
    expect(Date.parse(href.searchParams.get('from')!)).toBeLessThan(Date.parse(href.searchParams.get('to')!));
  });

  await test.step('the failing workflow’s row opens the executions list filtered to it', async () => {
    const row = member.getByTestId('failing-workflow-row').filter({ hasText: `Forward orders ${stamp}` });
    await expect(row).toHaveCount(1);
    await row.getByRole('link').click();
    await expect(member).toHaveURL(/\/executions\?/);
    const url = new URL(member.url());
    expect(url.searchParams.get('workflowId')).toBe(failing.id);
    expect(url.searchParams.get('status')).toBe('failed');
    expect(url.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(url.searchParams.get('to')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  await test.step('the first render of the seeded dashboard is measured', async () => {
    await member.goto('/');
    await expect(member.getByTestId('kpi-cards')).toBeVisible(firstRender);
    const timing = await member.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const [kpis] = performance.getEntriesByName('dashboard:kpis-shown');
      return {
        responseStart: Math.round(navigation.responseStart),
        domContentLoaded: Math.round(navigation.domContentLoadedEventEnd),
        load: Math.round(navigation.loadEventEnd),
        kpisShown: kpis ? Math.round(kpis.startTime) : null,
      };
    });
    console.log(
      `[dashboard] first render (Chromium, seeded instance): first byte ${timing.responseStart} ms, DOMContentLoaded ${timing.domContentLoaded} ms, load ${timing.load} ms, KPI cards shown ${timing.kpisShown} ms after navigation start`,
    );
    expect(timing.kpisShown).not.toBeNull();
  });

  await test.step('the failure is acknowledged in place', async () => {
    const failure = member.getByTestId('recent-failure-row').filter({ hasText: `Forward orders ${stamp}` });
    await expect(failure).toHaveAttribute('data-acknowledged', 'false');
    await failure.getByRole('button', { name: `Acknowledge the failure of “Forward orders ${stamp}”` }).click();
    await expect(failure).toHaveAttribute('data-acknowledged', 'true');
    await expect(failure).toContainText('Acknowledged');
  });
  await context.close();
});

test('the dashboard in French and dark', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const name = 'Fanny Français';
  const { context } = await newMember(page, browser, 'dash-fr', name);
  const member = await context.newPage();
  await member.goto('/?period=30d');
  await expect(member.getByTestId('dashboard-empty')).toBeVisible(firstRender);
  for (const entry of ['Dark', 'Français']) {
    await member.getByRole('button', { name: new RegExp(name) }).first().click();
    await member.getByRole('menuitemradio', { name: entry, exact: true }).click();
    await expect(member.getByRole('menu')).toBeHidden();
  }
  await member.reload();
  await expect(member.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(member.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(member.getByRole('heading', { name: 'Votre tableau de bord se remplit à mesure que vos workflows tournent' })).toBeVisible(firstRender);
  await expect(member.getByTestId('dashboard-period')).toHaveValue('30d');
  await expect(member.getByTestId('dashboard-period').locator('option:checked')).toHaveText('30 derniers jours');
  // The chart colours are the theme's: dark values of the CSS variables.
  const failedColour = await member.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--chart-failed').trim());
  expect(failedColour).toBe('#f87171');
  await context.close();
});

const mailAccount: MailUser = { user: 'dash-journey@example.test', password: 'dash-journey-imap-password' };

interface MailAnswer {
  window: { buckets: string[] };
  current: { received: number; byOutcome: { outcome: string; count: number }[]; automatedEmails: number; draftsPrepared: number; sentByWorkflows: number };
  series: { received: number[]; dispatched: number[] };
}
interface AiAnswer {
  current: { calls: number; costUsd: number; unpricedCalls: number };
  byModel: { provider: string; model: string; calls: number; costUsd: number }[];
  byPurpose: { purpose: string; calls: number; costUsd: number }[];
}

/** The mirrored message's id, by subject. */
async function messageIdOf(request: APIRequestContext, mailboxId: string, subject: string): Promise<string> {
  const answer = await request.get(`/api/v1/messages?mailboxId=${mailboxId}&limit=50`);
  const { messages } = (await answer.json()) as { messages: { id: string; subject: string | null }[] };
  const found = messages.find((message) => message.subject === subject);
  expect(found, `the mail “${subject}” is mirrored`).toBeTruthy();
  return found!.id;
}

/** Waits until dispatch has handled the message (its journal entry's outcome). */
async function journalOutcome(request: APIRequestContext, messageId: string): Promise<string> {
  let outcome = '';
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/v1/messages/${messageId}/journal`);
        if (answer.status() !== 200) return `status ${answer.status()}`;
        const { entry } = (await answer.json()) as { entry: { outcome: string } | null };
        outcome = entry?.outcome ?? '';
        return entry ? 'handled' : 'not yet';
      },
      { timeout: 90_000, message: 'dispatch handles the new mail' },
    )
    .toBe('handled');
  return outcome;
}

test('after real mail and real AI calls the mail and AI figures are the API’s, and the mail chart opens the journal', async ({ page, browser }) => {
  test.setTimeout(600_000);
  const dovecot = await startDovecot({ users: [mailAccount] });
  const smtp = await startSmtpServer({ users: [mailAccount], tls: 'none' });
  const vendor = await startFakeVendor('openai');
  const { context, stamp } = await newMember(page, browser, 'dash-mail', 'Mona Mail');
  const label = `Dashboard classifier ${stamp}`;
  const model = `dash-model-${stamp}`;
  try {
    await test.step('the administrator points classify at the fake vendor (no price for its model)', async () => {
      await addFakeConnection(page, vendor, { label, model, apiKey: 'sk-e2e-dashboard-2468' });
      await routePurpose(page, 'classify', { label, model });
    });

    const member = await context.newPage();
    const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, mailAccount);
    await waitForFirstSync(context.request, mailboxId);

    const workflowId = await test.step('the member publishes a mail workflow: orders are classified by AI, then a reply is drafted', async () => {
      const created = await context.request.post('/api/v1/workflows', {
        data: {
          name: `Answer orders ${stamp}`,
          graph: {
            nodes: [
              { id: 'mail', type: 'trigger.mail', version: 1, name: 'Incoming order', params: { mailboxIds: [mailboxId], subject: ['order'] }, position: { x: 0, y: 0 } },
              {
                id: 'classify',
                type: 'ai.classify',
                version: 1,
                name: 'Classify',
                params: { labels: [{ name: 'order', description: 'An order or a question about one' }, { name: 'other', description: 'Anything else' }] },
                position: { x: 240, y: 0 },
              },
              { id: 'draft', type: 'mail.draft', version: 1, name: 'Draft the reply', params: { replyTo: { mode: 'reply' }, bodyText: 'Thanks, we are on it.' }, position: { x: 480, y: 0 } },
            ],
            connections: [
              { from: 'mail', output: 'main', to: 'classify' },
              { from: 'classify', output: 'main', to: 'draft' },
            ],
          },
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      const id = ((await created.json()) as { workflow: { id: string } }).workflow.id;
      const published = await context.request.post(`/api/v1/workflows/${id}/publish`, { data: { note: 'Dashboard mail journey' } });
      expect(published.ok(), await published.text()).toBe(true);
      return id;
    });
    expect(workflowId).toMatch(/^[0-9a-f-]{36}$/);

    const orders = [`Order 1 ${stamp}`, `Order 2 ${stamp}`];
    const unmatched = `Lunch on Friday ${stamp}`;
    const autoReply = `Automatic reply: Order 3 ${stamp}`;
    const newsletter = `Order news ${stamp}`;
    await test.step('mail arrives: two orders, one that matches nothing, an auto-reply and a newsletter', async () => {
      for (let index = 0; index < orders.length; index += 1) vendor.reply({ kind: 'json', value: { label: 'order', confidence: 0.9 }, usage: { input: 300, output: 20 } });
      const deliver = async (fields: { from: string; subject: string; text: string; headers?: Record<string, string> }) =>
        appendMessage({ server: dovecot, ...mailAccount, raw: await buildRawMessage({ to: mailAccount.user, ...fields }) });
      for (const subject of orders) await deliver({ from: 'Olga Orders <olga@customer.example.test>', subject, text: 'Where is my order?' });
      await deliver({ from: 'Carl Colleague <carl@work.example.test>', subject: unmatched, text: 'Shall we?' });
      await deliver({ from: 'Omar Away <omar@partner.example.test>', subject: autoReply, text: 'I am away until Monday.', headers: { 'Auto-Submitted': 'auto-replied' } });
      await deliver({
        from: 'Shop News <news@shop.example.test>',
        subject: newsletter,
        text: 'Our new collection.',
        headers: { 'List-Unsubscribe': '<mailto:unsubscribe@shop.example.test>', Precedence: 'bulk' },
      });
      const outcomes: Record<string, string> = {};
      for (const subject of [...orders, unmatched, autoReply, newsletter]) {
        await waitForMirrored(context.request, mailboxId, subject);
        outcomes[subject] = await journalOutcome(context.request, await messageIdOf(context.request, mailboxId, subject));
      }
      expect(outcomes[orders[0]]).toBe('dispatched');
      expect(outcomes[orders[1]]).toBe('dispatched');
      expect(outcomes[unmatched]).not.toBe('dispatched');
      expect(outcomes[autoReply]).not.toBe('dispatched');
      expect(outcomes[newsletter]).not.toBe('dispatched');
      console.log(`[dashboard] journal outcomes: orders ${outcomes[orders[0]]}/${outcomes[orders[1]]}, unmatched ${outcomes[unmatched]}, auto-reply ${outcomes[autoReply]}, newsletter ${outcomes[newsletter]}`);
    });

    const tz = await member.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone).catch(() => 'UTC');
    const query = `period=7d&tz=${encodeURIComponent(tz)}`;
    const read = async <T,>(route: string): Promise<T> => {
      const answer = await context.request.get(`/api/v1/dashboard/${route}?${query}`);
      expect(answer.status(), await answer.text()).toBe(200);
      return (await answer.json()) as T;
    };
    // The runs end (the drafts are written, the AI calls recorded) on the runner's time.
    await expect
      .poll(async () => {
        const [mail, ai] = await Promise.all([read<MailAnswer>('mail'), read<AiAnswer>('ai')]);
        return `drafts ${mail.current.draftsPrepared}, AI calls ${ai.current.calls}`;
      }, { timeout: 120_000, message: 'the workflow drafts both replies and its AI calls are counted' })
      .toBe('drafts 2, AI calls 2');
    const mail = await read<MailAnswer>('mail');
    const ai = await read<AiAnswer>('ai');
    const dispatched = mail.current.byOutcome.find((entry) => entry.outcome === 'dispatched')?.count ?? 0;
    expect(mail.current.received).toBe(5);
    expect(dispatched).toBe(2);
    expect(mail.current.automatedEmails).toBeGreaterThanOrEqual(1);
    expect(ai.current.unpricedCalls).toBe(2);
    expect(ai.current.costUsd).toBe(0);
    console.log(
      `[dashboard] API (7d): mail received ${mail.current.received}, dispatched ${dispatched}, automated ${mail.current.automatedEmails}, drafts ${mail.current.draftsPrepared}, sent ${mail.current.sentByWorkflows}; AI calls ${ai.current.calls}, cost ${ai.current.costUsd} USD, unpriced ${ai.current.unpricedCalls}`,
    );

    await member.goto('/');
    await expect(member.getByTestId('kpi-cards')).toBeVisible(firstRender);

    await test.step('the mail and AI cards show what the API answers', async () => {
      await expect(member.getByTestId('kpi-mailReceived-value')).toHaveText(count(mail.current.received));
      await expect(member.getByTestId('kpi-dispatched-value')).toHaveText(count(dispatched));
      await expect(member.getByTestId('kpi-draftsPrepared-value')).toHaveText(count(mail.current.draftsPrepared));
      await expect(member.getByTestId('kpi-sentByWorkflows-value')).toHaveText(count(mail.current.sentByWorkflows));
      await expect(member.getByTestId('kpi-aiSpend-value')).toHaveText(usd(ai.current.costUsd));
      // No price for the model: the calls are said, their cost is not guessed.
      await expect(member.getByTestId('kpi-aiSpend')).toContainText(`${ai.current.unpricedCalls} calls without a price`);
    });

    await test.step('the AI breakdowns by model and by purpose show the calls', async () => {
      const byModel = ai.byModel.find((row) => row.model === model);
      expect(byModel?.calls).toBe(2);
      await member.getByTestId('chart-ai-model-toggle').click();
      const models = member.getByTestId('chart-ai-model').getByRole('table', { name: 'AI spend by model' });
      const modelRow = models.getByRole('row').filter({ has: member.getByRole('rowheader', { name: model, exact: true }) });
      await expect(modelRow.getByRole('cell')).toHaveText([count(byModel!.calls), usd(byModel!.costUsd)]);
      const byPurpose = ai.byPurpose.find((row) => row.purpose === 'classify');
      expect(byPurpose?.calls).toBe(2);
      await member.getByTestId('chart-ai-purpose-toggle').click();
      const purposes = member.getByTestId('chart-ai-purpose').getByRole('table', { name: 'AI spend by purpose' });
      const purposeRow = purposes.getByRole('row').filter({ has: member.getByRole('rowheader', { name: 'classify', exact: true }) });
      await expect(purposeRow.getByRole('cell')).toHaveText([count(byPurpose!.calls), usd(byPurpose!.costUsd)]);
    });

    await test.step('the mailbox health panel lists the mailbox as healthy', async () => {
      const row = member.getByTestId('mailbox-health').getByTestId('mailbox-health-row').filter({ hasText: mailAccount.user });
      await expect(row).toHaveCount(1, { timeout: 30_000 });
      await expect(row).toContainText('Healthy', { timeout: 30_000 });
    });

    await test.step('the mail chart’s table shows each period’s counts; the dispatched count opens the journal', async () => {
      await member.getByTestId('chart-mail-toggle').click();
      const table = member.getByTestId('chart-mail').getByRole('table', { name: 'Mail received and dispatched' });
      await expect(table).toBeVisible();
      const rows = table.locator('tbody tr');
      await expect(rows).toHaveCount(mail.window.buckets.length);
      const filled = mail.series.received.map((value, index) => ({ value, index })).filter((entry) => entry.value > 0);
      expect(filled.length).toBeGreaterThan(0);
      for (const { index } of filled) {
        await expect(rows.nth(index).getByRole('cell')).toHaveText([count(mail.series.received[index]), count(mail.series.dispatched[index])]);
      }
      const busiest = mail.series.dispatched.findIndex((value) => value > 0);
      expect(busiest).toBeGreaterThanOrEqual(0);
      await rows.nth(busiest).getByRole('cell').nth(1).getByRole('link').click();
      await expect(member).toHaveURL(/\/journal\?/);
      const url = new URL(member.url());
      expect(url.searchParams.get('outcome')).toBe('dispatched');
      const entries = member.getByTestId('journal-entry');
      for (const subject of orders) await expect(entries.filter({ hasText: subject })).toHaveAttribute('data-outcome', 'dispatched', { timeout: 30_000 });
      await expect(entries.filter({ hasText: unmatched })).toHaveCount(0);
    });
  } finally {
    await removeConnection(page.request, label).catch(() => undefined);
    await context.close();
    await vendor.close();
    await smtp.stop();
    await dovecot.stop();
  }
});
