/**
 * Journey (issue 25 §5): a member with an API key goes from Settings → API keys to the instance's API
 * reference, finds GET /api/v1/auth/me, types the key into the Authorize dialog and runs the operation
 * from the page: 200 with their own email, the key sent as a Bearer token and the session cookie left
 * behind. Nothing of the key is stored (no web storage, no cookie), so after switching the page to
 * French (summaries from the French document) the same operation answers 401 until a key is typed
 * again. Every request the page makes stays on the instance's origin, and its policy is never broken.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { e2eAdmin, e2eBaseUrl } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

/** The operation block Swagger UI draws for a method and path. */
function operation(page: Page, method: string, path: string): Locator {
  return page.locator('.opblock').filter({ has: page.locator('.opblock-summary-method', { hasText: new RegExp(`^${method}$`) }) }).filter({
    has: page.locator('.opblock-summary-path', { hasText: new RegExp(`^${path.replaceAll('/', '\\/')}$`) }),
  });
}

/**
 * Finds an operation the way a reader does: the filter box narrows the list to the operation's tag,
 * which starts folded, then the operation is opened. The first render of the whole document takes
 * Swagger UI about two seconds of CPU on a quiet machine (a few hundred operations, handed to it in
 * the 3.0 dialect: browser/openapi-30.js), and much longer on a loaded one, hence the long waits.
 */
async function openOperation(page: Page, tag: string, method: string, path: string): Promise<Locator> {
  await page.getByPlaceholder('Filter by tag').fill(tag, { timeout: 150_000 });
  // The filter re-renders the list while the tag is clicked: click until the tag says it is open.
  const header = page.locator(`.opblock-tag[data-tag="${tag}"]`);
  await expect(async () => {
    if ((await header.getAttribute('data-is-open')) !== 'true') await header.click();
    await expect(header).toHaveAttribute('data-is-open', 'true', { timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
  const block = operation(page, method, path);
  await block.locator('.opblock-summary-control').click();
  return block;
}

async function execute(block: Locator): Promise<Locator> {
  await block.getByRole('button', { name: 'Try it out' }).click();
  await block.getByRole('button', { name: 'Execute' }).click();
  const live = block.locator('.live-responses-table');
  await expect(live).toBeVisible({ timeout: 30_000 });
  return live;
}

test.setTimeout(360_000);

test('a member runs GET /api/v1/auth/me from the API reference with a typed key, stored nowhere, in English and French', async ({ browser, page }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const suffix = Date.now().toString(36);
  const email = `reference-${suffix}@e2e.test`;
  const context = await signedInMember(browser, page.request, { email, name: 'Reference Reader', password: 'reference-reader-password' });
  const created = await context.request.post('/api/v1/api-keys', { data: { name: `Reference ${suffix}`, scopes: ['tables:read'] } });
  expect(created.status()).toBe(201);
  const { secret } = (await created.json()) as { secret: string };
  expect(secret).toMatch(/^mk_/);
  const cookiesBefore = (await context.cookies()).map(({ name, value }) => `${name}=${value}`).sort();

  const member = await context.newPage();
  const origins = new Set<string>();
  member.on('request', (request) => {
    if (!request.url().startsWith('data:')) origins.add(new URL(request.url()).origin);
  });
  const policyViolations: string[] = [];
  member.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
  });

  // Settings → API keys links to the reference.
  await member.goto('/settings/api-keys');
  await member.getByRole('link', { name: 'API reference' }).click();
  await expect(member).toHaveURL(/\/api\/reference\?lang=en$/);
  await expect(member.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible();
  await expect(member.locator('html')).toHaveAttribute('lang', 'en');

  // Find the operation with the page's filter, then authorise with the key.
  const me = await openOperation(member, 'Session', 'GET', '/api/v1/auth/me');
  await expect(me.locator('.opblock-summary-description')).toHaveText('Signed-in member');

  await member.getByRole('button', { name: 'Authorize' }).first().click();
  const dialog = member.locator('.dialog-ux .modal-ux');
  await expect(dialog).toContainText('apiKey');
  await dialog.getByRole('textbox').fill(secret);
  await dialog.getByRole('button', { name: 'Apply credentials' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();

  const sent = member.waitForRequest((request) => request.url() === `${e2eBaseUrl}/api/v1/auth/me`);
  const answer = await execute(me);
  const headers = await (await sent).allHeaders();
  expect(headers.authorization).toBe(`Bearer ${secret}`);
  // The reader's session stays out of try-it: the page speaks as the key only.
  expect(headers.cookie).toBeUndefined();
  await expect(answer.locator('tr.response .response-col_status')).toHaveText('200');
  await expect(answer.locator('tr.response .response-col_description')).toContainText(`"email": "${email}"`);

  // Nothing of the key was kept: no web storage, the cookies as they were.
  const storage = await member.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }));
  expect(storage).toEqual({ local: 0, session: 0 });
  expect((await context.cookies()).map(({ name, value }) => `${name}=${value}`).sort()).toEqual(cookiesBefore);

  // French: the document's French texts, and the key is gone with the page it was typed in.
  await member.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Français' }).click();
  await expect(member).toHaveURL(/\/api\/reference\?lang=fr$/);
  await expect(member.getByRole('heading', { name: 'Référence de l’API', level: 1 })).toBeVisible();
  await expect(member.locator('html')).toHaveAttribute('lang', 'fr');
  const meFr = await openOperation(member, 'Session', 'GET', '/api/v1/auth/me');
  await expect(meFr.locator('.opblock-summary-description')).toHaveText('Membre connecté');
  const unauthorised = await execute(meFr);
  await expect(unauthorised.locator('tr.response .response-col_status')).toHaveText('401');
  await expect(unauthorised.locator('tr.response .response-col_description')).toContainText('auth.unauthenticated');

  expect([...origins]).toEqual([e2eBaseUrl]);
  expect(policyViolations).toEqual([]);
  expect(await member.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }))).toEqual({ local: 0, session: 0 });
  await context.close();
});
