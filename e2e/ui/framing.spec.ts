/**
 * Issue 18 item 6 in a real browser against the production server: another site cannot frame the
 * application (clickjacking of its send and approve buttons), and the application's pages run under
 * their Content-Security-Policy without a single violation.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { e2eAdmin, e2eBaseUrl } from '../fixtures/env';
import { signIn } from '../fixtures/session';

let attacker: Server;
let attackerBase: string;

test.beforeAll(async () => {
  // A page of another origin on the same host (same-site: another port) that frames the application.
  attacker = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('target') ?? '/';
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>attacker</title><iframe id="victim" src="${e2eBaseUrl}${target}" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerBase = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => attacker.close(() => resolve()));
});

/** Violations of the page's policy, recorded from the first script of every document on. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);
}

test('another site cannot frame the sign-in page or a signed-in page', async ({ page }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  for (const target of ['/login', '/review', '/approvals']) {
    await page.goto(`${attackerBase}/?target=${encodeURIComponent(target)}`);
    // The browser refuses to render the application inside the frame: none of its content is there.
    const frame = page.frameLocator('#victim');
    await page.waitForTimeout(500);
    await expect(frame.locator('body')).not.toContainText(/Sign in|Review|Approvals/i, { timeout: 2000 });
    const victim = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(victim?.url() ?? '', target).not.toContain(e2eBaseUrl + target);
  }
});

test('the application’s pages load and work under their policy without a violation', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) consoleErrors.push(message.text());
  });
  await recordViolations(page);
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  expect(await violations(page)).toEqual([]);
  const graph = { nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } }], connections: [] };
  const created = await page.request.post('/api/v1/workflows', { data: { name: 'CSP check', graph } });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = ((await created.json()) as { workflow: { id: string } }).workflow.id;
  for (const path of ['/', '/messages', '/review', '/workflows', '/executions', '/tables', '/settings/api-keys', '/admin/members']) {
    await page.goto(path);
    // Client-side rendering and data loading come after the load event: let them happen.
    await page.waitForTimeout(500);
    expect(await violations(page), path).toEqual([]);
  }
  // The builder: the flow canvas and the code editors inject their own styles.
  await page.goto(`/workflows/${workflowId}`);
  await expect(page.getByTestId('builder-canvas')).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(500);
  expect(await violations(page), 'builder').toEqual([]);
  expect(consoleErrors).toEqual([]);
});
