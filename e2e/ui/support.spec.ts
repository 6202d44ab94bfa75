/**
 * Journey of support (issue 23): on the linked instance, a member opens a request and a conversation from the
 * Support section; the operator's team (the fake control plane, e2e/fixtures/operator-process.ts) answers and
 * moves the request to `quoted`; the member sees it live, with the unread badge and the page title's count,
 * which clear on reading; an administrator sees the organisation's threads with their authors. An instance
 * without the link explains itself instead of offering forms; the sign-in page wears the operator's brand.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eAdmin, e2eControlPlane } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { operatorReceived, operatorReply, operatorSetStatus, operatorSlowness } from '../fixtures/operator';
import { signIn } from '../fixtures/session';
import { startUnlinkedInstance } from '../fixtures/unlinked-instance';

const threadIdOf = (page: Page) => /\/support\/([^/?#]+)$/.exec(new URL(page.url()).pathname)?.[1] ?? '';

test('a member opens a request and a conversation; the team answers live; the badge clears on reading; the administrator sees the author', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const name = `Sam Support ${stamp}`;
  const member = { email: `support-${stamp}@e2e.test`, name, password: 'support-member-password' };
  const requestTitle = `Nightly export to the ERP ${stamp}`;
  const conversationSubject = `A question about quotas ${stamp}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, member);
  const memberPage = await context.newPage();
  await operatorSlowness(2_500);

  let requestId = '';
  await test.step('the member opens a request from the Support section; it is pending until the operator has it', async () => {
    await memberPage.goto('/');
    await memberPage.getByRole('link', { name: /^Support/ }).click();
    await expect(memberPage.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
    await memberPage.getByTestId('support-new-request').click();
    await memberPage.getByLabel('Title').fill(requestTitle);
    await memberPage.getByLabel('What you need').fill('A CSV of yesterday’s invoices, every night at 2:00.');
    await memberPage.getByRole('button', { name: 'Send request' }).click();
    await expect(memberPage.getByRole('heading', { level: 1, name: requestTitle })).toBeVisible();
    requestId = threadIdOf(memberPage);
    expect(requestId).not.toBe('');
    await expect(memberPage.getByTestId('support-status')).toHaveText('Received');
    const first = memberPage.getByTestId('support-message').first();
    await expect(first).toHaveAttribute('data-direction', 'member');
    await expect(first.getByTestId('support-message-pending')).toBeVisible();
    await expect(first.getByTestId('support-message-pending')).toBeHidden({ timeout: 20_000 });
    await operatorSlowness(0);
    const atOperator = await operatorReceived(requestId, 1);
    expect(atOperator).toMatchObject({ kind: 'request', subject: requestTitle });
  });

  let conversationId = '';
  await test.step('the member starts a conversation and answers in it with the keyboard', async () => {
    await memberPage.getByRole('link', { name: /^Support/ }).click();
    await memberPage.getByTestId('support-new-conversation').click();
    await memberPage.getByLabel('Subject').fill(conversationSubject);
    await memberPage.getByLabel('Message').fill('How many workflows may we run at once?');
    await memberPage.getByRole('button', { name: 'Start conversation' }).click();
    await expect(memberPage.getByRole('heading', { level: 1, name: conversationSubject })).toBeVisible();
    conversationId = threadIdOf(memberPage);
    await expect(memberPage.getByTestId('support-status')).toHaveText('Open');
    await memberPage.getByLabel('Reply').fill('And per mailbox?');
    await memberPage.getByLabel('Reply').press('Control+Enter');
    await expect(memberPage.getByTestId('support-message')).toHaveCount(2);
    await expect(memberPage.getByTestId('support-message').nth(1)).toContainText('And per mailbox?');
    await operatorReceived(conversationId, 2);
  });

  await test.step('a team reply reaches the open thread live, without a reload', async () => {
    await operatorReply(conversationId, 'Camille (operations)', 'Ten at once per workflow, by default.');
    const team = memberPage.locator('[data-testid="support-message"][data-direction="team"]');
    await expect(team).toContainText('Ten at once per workflow, by default.', { timeout: 20_000 });
    await expect(team).toContainText('Camille (operations)');
  });

  await test.step('the request is quoted by the team: the list, the badge and the title say so live', async () => {
    await memberPage.getByRole('link', { name: /^Support/ }).click();
    const row = memberPage.locator(`[data-testid="support-thread-row"][data-thread-id="${requestId}"]`);
    await expect(row).toContainText(requestTitle);
    await expect(row.getByTestId('support-unread')).toHaveCount(0);
    await operatorReply(requestId, 'Camille (operations)', 'Feasible: the quote is attached to this request.');
    await operatorSetStatus(requestId, 'quoted');
    await expect(row.getByTestId('support-status')).toHaveText('Quoted', { timeout: 20_000 });
    await expect(row.getByTestId('support-unread')).toBeVisible();
    await expect(memberPage.getByTestId('nav-support-unread')).toHaveText('1');
    await expect(memberPage).toHaveTitle(/^\(1\)/);
  });

  await test.step('reading the request clears its unread mark, the badge and the title’s count', async () => {
    await memberPage.locator(`[data-testid="support-thread-row"][data-thread-id="${requestId}"]`).click();
    await expect(memberPage.getByRole('heading', { level: 1, name: requestTitle })).toBeVisible();
    await expect(memberPage.locator('[data-testid="support-message"][data-direction="team"]')).toContainText('the quote is attached');
    await expect(memberPage.getByTestId('support-status')).toHaveText('Quoted');
    await expect(memberPage.getByTestId('nav-support-unread')).toHaveCount(0);
    await expect(memberPage).not.toHaveTitle(/^\(\d+\)/);
  });

  await test.step('the administrator sees the member’s threads with their author, still unread for the administrator alone', async () => {
    await page.goto('/support');
    const row = page.locator(`[data-testid="support-thread-row"][data-thread-id="${requestId}"]`);
    await expect(row.getByTestId('support-author')).toContainText(name);
    await expect(page.locator(`[data-testid="support-thread-row"][data-thread-id="${conversationId}"]`).getByTestId('support-author')).toContainText(name);
    // The member's reading was theirs: the administrator has not read the team's reply yet.
    await expect(row.getByTestId('support-unread')).toBeVisible();
    await row.click();
    await expect(page.getByRole('heading', { level: 1, name: requestTitle })).toBeVisible();
  });
  await context.close();
});

test('the sign-in page wears the operator’s brand', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  // The instance keeps the brand its runner fetched; pages read that copy (memoised for 15 s per process).
  await expect(async () => {
    await page.goto('/login');
    await expect(page.getByText(e2eControlPlane.welcome.en)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 45_000 });
  await expect(page.getByText(e2eControlPlane.brandName).first()).toBeVisible();
  await context.close();
});

test('an instance without a control plane explains itself instead of offering forms', async ({ browser }) => {
  test.setTimeout(120_000);
  const unlinked = await startUnlinkedInstance();
  try {
    const context = await browser.newContext({ baseURL: unlinked.baseUrl, locale: 'en-US' });
    const page = await context.newPage();
    await signIn(page, e2eAdmin.email, e2eAdmin.password);
    await page.getByRole('link', { name: /^Support/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
    await expect(page.getByTestId('support-unlinked')).toContainText('CONTROL_PLANE_URL');
    await expect(page.getByTestId('support-new-request')).toHaveCount(0);
    await expect(page.getByTestId('support-new-conversation')).toHaveCount(0);
    // The threads already here stay readable, without a composer.
    const row = page.getByTestId('support-thread-row').first();
    await row.click();
    await expect(page.getByTestId('support-message').first()).toBeVisible();
    await expect(page.getByLabel('Reply')).toHaveCount(0);
    await context.close();
  } finally {
    await unlinked.stop();
  }
});
