/**
 * Journey: an administrator invites a member, the member accepts in a second browser context, the
 * administrator deactivates them, and the member's session is refused.
 */
import { expect, test } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signIn } from '../fixtures/session';

test('invite, accept in another browser, deactivate, and the session is refused', async ({ page, browser }) => {
  const email = `joiner-${Date.now()}@e2e.test`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto('/admin/members');
  await expect(page.getByRole('heading', { name: 'Members', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Create invitation' }).click();
  const linkField = page.getByTestId('invitation-accept-url');
  await expect(linkField).toBeVisible();
  const acceptUrl = ((await linkField.inputValue().catch(() => null)) ?? (await linkField.textContent()) ?? '').trim();
  expect(acceptUrl).toContain('/invitations/accept#token=');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toBeVisible();

  const joinerContext = await browser.newContext({ locale: 'en-US' });
  const joiner = await joinerContext.newPage();
  await joiner.goto(acceptUrl);
  await joiner.getByLabel('Your name').fill('Jo Iner');
  await joiner.getByLabel('Password', { exact: true }).fill('joiner-password-42');
  await joiner.getByLabel('Confirm password').fill('joiner-password-42');
  await joiner.getByRole('button', { name: 'Create account' }).click();
  await expect(joiner).toHaveURL(/\/$/);
  const meBefore = await joiner.request.get('/api/v1/auth/me');
  expect((await meBefore.json()).member).toMatchObject({ email, name: 'Jo Iner', role: 'member' });

  await page.reload();
  const memberRow = page.getByTestId('member-row').filter({ hasText: email });
  await expect(memberRow).toBeVisible();
  await expect(page.getByTestId('invitation-row').filter({ hasText: email })).toHaveCount(0);
  await memberRow.getByRole('button', { name: 'Deactivate Jo Iner' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate member' }).click();
  await expect(page.getByTestId('deactivation-effects')).toContainText('1');
  await expect(memberRow).toContainText('Suspended');

  const meAfter = await joiner.request.get('/api/v1/auth/me');
  expect(meAfter.status()).toBe(401);
  await joiner.goto('/settings/api-keys');
  await expect(joiner).toHaveURL(/\/login/);
  await joinerContext.close();
});

test('the interface follows the browser language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await context.close();
});
