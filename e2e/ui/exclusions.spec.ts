/**
 * Journey of Settings → Exclusions: a member excludes a domain (typed with a leading @ and capitals,
 * stored normalised), sees it listed, is told inline that adding it again is a duplicate, deletes it
 * after confirming; the member sees no organisation section, an administrator does.
 */
import { expect, test } from '@playwright/test';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

test('a member adds a domain exclusion, a duplicate is refused inline, deletes it; an administrator sees the organisation list', async ({ page, browser }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const memberContext = await signedInMember(browser, page.request, {
    email: `exclusions-member-${Date.now()}@e2e.test`,
    name: 'Xavier Member',
    password: 'member-password-42',
  });
  const member = await memberContext.newPage();

  await test.step('a member opens the page from the settings navigation', async () => {
    await member.goto('/');
    await member.getByRole('link', { name: 'Exclusions' }).click();
    await expect(member).toHaveURL(/\/settings\/exclusions$/);
    await expect(member.getByRole('heading', { name: 'Sender exclusions', exact: true })).toBeVisible();
    await expect(member.getByTestId('exclusions-explanation')).toContainText('excluded_member');
    await expect(member.getByRole('heading', { name: 'My exclusions' })).toBeVisible();
    await expect(member.getByRole('region', { name: 'My exclusions' }).getByTestId('list-empty')).toBeVisible();
    await expect(member.getByRole('heading', { name: 'Organisation exclusions' })).toHaveCount(0);
  });

  const mine = member.getByRole('region', { name: 'My exclusions' });
  const form = mine.getByRole('form', { name: 'Add an exclusion' });

  await test.step('a malformed domain is refused before sending', async () => {
    await form.getByLabel('Kind').selectOption('domain');
    await form.getByLabel('Value').fill('not a domain');
    await form.getByRole('button', { name: 'Add exclusion' }).click();
    await expect(form.getByText('Enter a domain name, such as example.com')).toBeVisible();
    await expect(form.getByLabel('Value')).toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('the domain is added, stored normalised and listed', async () => {
    await form.getByLabel('Value').fill('@News.Example.COM');
    await expect(form.getByText('Will be stored as news.example.com')).toBeVisible();
    await form.getByLabel('Note').fill('Newsletters');
    await form.getByRole('button', { name: 'Add exclusion' }).click();
    await expect(form.getByRole('status')).toHaveText('news.example.com is excluded.');
    const row = mine.getByTestId('exclusion-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Domain');
    await expect(row).toContainText('news.example.com');
    await expect(row).toContainText('Newsletters');
    await expect(form.getByLabel('Value')).toHaveValue('');
  });

  await test.step('the same domain again shows the duplicate message inline', async () => {
    await form.getByLabel('Value').fill('news.example.com');
    await form.getByRole('button', { name: 'Add exclusion' }).click();
    await expect(form.getByText('This sender or domain is already in the list.')).toBeVisible();
    await expect(form.getByLabel('Value')).toHaveAttribute('aria-invalid', 'true');
    await expect(mine.getByTestId('exclusion-row')).toHaveCount(1);
  });

  await test.step('the member deletes it after confirming', async () => {
    await mine.getByRole('button', { name: 'Delete exclusion news.example.com' }).click();
    const dialog = member.getByRole('alertdialog');
    await expect(dialog).toContainText('Stop excluding “news.example.com”?');
    await dialog.getByRole('button', { name: 'Delete exclusion' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(mine.getByTestId('exclusion-row')).toHaveCount(0);
    await expect(mine.getByTestId('list-empty')).toBeVisible();
    const listed = await memberContext.request.get('/api/v1/exclusions');
    expect((await listed.json()).exclusions).toEqual([]);
  });
  await memberContext.close();

  await test.step('an administrator sees the organisation section', async () => {
    await page.goto('/settings/exclusions');
    await expect(page.getByRole('heading', { name: 'My exclusions' })).toBeVisible();
    const org = page.getByRole('region', { name: 'Organisation exclusions' });
    await expect(org.getByRole('heading', { name: 'Organisation exclusions' })).toBeVisible();
    await expect(org.getByRole('form', { name: 'Add an exclusion' })).toBeVisible();
    await expect(page.getByTestId('exclusions-explanation')).toContainText('excluded_org');
  });
});
