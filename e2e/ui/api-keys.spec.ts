/**
 * Journey: an administrator signs in, creates a key in the UI, a program uses it against the REST API,
 * then the key is revoked in the UI and the program gets 401.
 */
import { expect, test } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signIn } from '../fixtures/session';

test('create a key in the UI, use it over REST, revoke it and see 401', async ({ page, request }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Playwright key');
  await dialog.getByRole('group', { name: 'Tables' }).getByLabel('Read and write').check();
  await dialog.getByRole('group', { name: 'Administration' }).getByLabel('Read', { exact: true }).check();
  await dialog.getByRole('button', { name: 'Create key' }).click();

  const secretField = page.getByTestId('api-key-secret');
  await expect(secretField).toBeVisible();
  const secret = ((await secretField.inputValue().catch(() => null)) ?? (await secretField.textContent()) ?? '').trim();
  expect(secret).toMatch(/^mk_/);
  await page.getByRole('button', { name: 'I have stored it' }).click();

  const row = page.getByTestId('api-key-row').filter({ hasText: 'Playwright key' });
  await expect(row).toContainText(secret.slice(0, 8));
  await expect(row).toContainText('tables:write');

  const me = await request.get('/api/v1/auth/me', { headers: { authorization: `Bearer ${secret}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).member.email).toBe(e2eAdmin.email);
  const members = await request.get('/api/v1/admin/members', { headers: { authorization: `Bearer ${secret}` } });
  expect(members.status()).toBe(200);
  const write = await request.post('/api/v1/admin/members/invitations', {
    headers: { authorization: `Bearer ${secret}` },
    data: { email: 'nobody@e2e.test' },
  });
  expect(write.status()).toBe(403);
  expect((await write.json()).error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'admin:write' } });

  const listed = await page.request.get('/api/v1/api-keys');
  const used = (await listed.json()).keys.find((key: { prefix: string }) => key.prefix === secret.slice(0, 8));
  expect(used.lastUsedAt).not.toBeNull();

  await row.getByRole('button', { name: 'Revoke key Playwright key' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toContainText('Revoked');

  const refused = await request.get('/api/v1/auth/me', { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe('auth.unauthenticated');
});
