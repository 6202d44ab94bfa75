/**
 * The dashboard (issue 20, "The page a member lands on"). Each journey signs in a member of its own,
 * so its figures are its own whatever other specs did on the shared instance (scope `me`):
 * - a newcomer (nothing yet) sees the teaching empty state and the "Get started" list, has no scope
 *   switch, and the API refuses them the organisation (403);
 * - after real webhook runs (one workflow that succeeds, one that fails) the cards show what the API
 *   answers, refreshed live without a reload; the failing workflow's row opens the executions list
 *   filtered to it; the runs chart has a table view; the failure is acknowledged in place;
 *   the first render time is measured (navigation timing + the KPI cards' mark) and printed;
 * - in French and dark.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
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
