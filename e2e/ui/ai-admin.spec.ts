/**
 * Journey: an administrator adds an AI connection of a compatible server pointed at a fake vendor
 * (server/testing/ai-fakes on 127.0.0.1, opened to AI base URLs by LLM_ALLOW_HOSTS in
 * playwright.config.ts) after a refused private address, routes `classify` to it, sets the monthly
 * budgets, and finds it all again after a reload.
 */
import { expect, test } from '@playwright/test';
import { startFakeVendor, type FakeVendorServer } from '../../server/testing/ai-fakes';
import { e2eAdmin } from '../fixtures/env';
import { signIn } from '../fixtures/session';

let vendor: FakeVendorServer;

test.beforeAll(async () => {
  vendor = await startFakeVendor('openai');
});

test.afterAll(async () => {
  await vendor.close();
});

test('add a connection to a fake vendor, route classify to it, set budgets, all kept after a reload', async ({ page }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  await page.getByRole('link', { name: 'AI models' }).click();
  await expect(page.getByRole('heading', { name: 'AI models', exact: true })).toBeVisible();

  await page.getByTestId('ai-connection-add').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('ai-connection-provider').selectOption('ai_generic_compatible');
  await dialog.getByTestId('ai-connection-label').fill('Fake vendor');
  await dialog.getByTestId('ai-connection-key').fill('sk-e2e-fake-9876');
  // A private address the instance does not open: refused at the base URL field with its reason.
  await dialog.getByTestId('ai-connection-base-url').fill('http://10.0.0.1/v1');
  await dialog.getByTestId('ai-enabled-models-input').fill('fake-model');
  await dialog.getByTestId('ai-enabled-models-input').press('Enter');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog.getByText('This address is on a private or reserved network')).toBeVisible();

  await dialog.getByTestId('ai-connection-base-url').fill(`${vendor.origin}/v1`);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('ai-connection-row').filter({ hasText: 'Fake vendor' });
  await expect(row).toContainText('Compatible server');
  await expect(row).toContainText('••••9876');
  await expect(row).toContainText(`${vendor.origin}/v1`);
  await expect(row).toContainText('fake-model');
  await expect(row).not.toContainText('sk-e2e-fake');

  const classify = page.locator('[data-testid="ai-routing-row"][data-purpose="classify"]');
  await classify.getByTestId('ai-routing-connection').selectOption({ label: 'Fake vendor' });
  // The connection restricts its models: a select of them.
  await classify.getByTestId('ai-routing-model').selectOption('fake-model');
  await page.getByTestId('ai-routing-save').click();
  await expect(page.getByTestId('ai-routing-saved')).toBeVisible();
  await expect(classify.getByTestId('ai-routing-effective')).toContainText('fake-model');
  await expect(classify.getByTestId('ai-routing-effective')).toContainText('this choice');

  await page.getByTestId('ai-budget-instance').fill('25');
  await page.getByTestId('ai-budget-member').fill('5.5');
  await page.getByTestId('ai-budgets-save').click();
  await expect(page.getByTestId('ai-budgets-saved')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('ai-connection-row').filter({ hasText: 'Fake vendor' })).toContainText('••••9876');
  await expect(classify.getByTestId('ai-routing-connection')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(classify.getByTestId('ai-routing-model')).toHaveValue('fake-model');
  await expect(classify.getByTestId('ai-routing-effective')).toContainText('Fake vendor');
  await expect(page.getByTestId('ai-budget-instance')).toHaveValue('25');
  await expect(page.getByTestId('ai-budget-member')).toHaveValue('5.5');
});
