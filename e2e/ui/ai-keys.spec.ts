/**
 * Journey: a member adds their own AI key (Settings → Connections → My AI keys; LLM_MEMBER_KEYS=1 in
 * playwright.config.ts) for a compatible server pointed at a fake vendor started here (opened by
 * LLM_ALLOW_HOSTS), sees only its last four characters, tests it against the vendor, and deletes it.
 */
import { expect, test } from '@playwright/test';
import { startFakeVendor, type FakeVendorServer } from '../../server/testing/ai-fakes';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

let vendor: FakeVendorServer;

test.beforeAll(async () => {
  vendor = await startFakeVendor('openai');
  vendor.models = ['e2e-model-a', 'e2e-model-b', 'e2e-model-c'];
});

test.afterAll(async () => {
  await vendor.close();
});

test('a member adds an AI key of their own, tests it against the provider and deletes it', async ({ browser, page }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const suffix = Date.now().toString(36);
  const context = await signedInMember(browser, page.request, { email: `ai-keys-${suffix}@e2e.test`, name: 'Key Holder', password: 'key-holder-password' });
  const member = await context.newPage();
  await member.goto('/settings/connections');
  const section = member.getByTestId('ai-keys');
  await expect(section.getByRole('heading', { name: 'My AI keys' })).toBeVisible();
  await expect(section.getByTestId('ai-keys-empty')).toBeVisible();

  await section.getByTestId('ai-key-add').click();
  const dialog = member.getByRole('dialog');
  await dialog.getByTestId('ai-key-provider').selectOption('ai_generic_compatible');
  await dialog.getByTestId('ai-key-name').fill(`My server ${suffix}`);
  await dialog.getByTestId('ai-key-key').fill('sk-e2e-member-4455');
  // A private address the instance does not open to members: refused at the base URL field.
  await dialog.getByTestId('ai-key-base-url').fill('http://10.0.0.1/v1');
  await dialog.getByRole('button', { name: 'Add key' }).click();
  await expect(dialog.getByText('This address is on a private or reserved network')).toBeVisible();
  await dialog.getByTestId('ai-key-base-url').fill(`${vendor.origin}/v1`);
  await dialog.getByRole('button', { name: 'Add key' }).click();
  await expect(dialog).toBeHidden();

  const row = section.getByTestId('ai-key-row').filter({ hasText: `My server ${suffix}` });
  await expect(row).toContainText('Compatible server');
  await expect(row.getByTestId('ai-key-hint')).toHaveText('••••4455');
  await expect(member.locator('body')).not.toContainText('sk-e2e-member');
  // Not repeated in the generic table of connections.
  await expect(member.getByTestId('connection-row').filter({ hasText: `My server ${suffix}` })).toHaveCount(0);

  await row.getByTestId('ai-key-test').click();
  await expect(row.getByTestId('ai-key-test-result')).toContainText('Works: 3 models listed');
  expect(vendor.requests.at(-1)?.headers.authorization).toBe('Bearer sk-e2e-member-4455');

  await row.getByTestId('ai-key-delete').click();
  await member.getByRole('alertdialog').getByRole('button', { name: 'Delete key' }).click();
  await expect(section.getByTestId('ai-keys-empty')).toBeVisible();
  await context.close();
});
