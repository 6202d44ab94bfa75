/**
 * Journey of the address book (issue 22, the Contacts page's part): an administrator adds the
 * organisation's VIP card for a domain; a member creates a signature, makes it a mailbox's default
 * signature, and adds a personal `tu`/casual card for one address of that domain; the entry's
 * resolution, seen from the mailbox, shows each field with the card or default that gave it. (The
 * workflow's draft carrying the signature and the vCard import belong to the other lanes of the issue.)
 * The member's mailbox is seeded in the database, as the review journey does: connecting one is
 * mail.spec.ts's subject.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2eDatabase } from '../fixtures/database';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

test('an administrator adds a shared VIP domain card; a member adds a tu/casual card and a mailbox signature; the trace shows every source', async ({ page, browser }) => {
  const stamp = Date.now();
  const domain = `vip-corp-${stamp}.example`;
  const address = `jo@${domain}`;
  await signIn(page, e2eAdmin.email, e2eAdmin.password);

  await test.step('the administrator adds the organisation’s card for the domain', async () => {
    await page.getByRole('link', { name: 'Contacts', exact: true }).click();
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(page.getByRole('heading', { name: 'Contacts', exact: true })).toBeVisible();
    await page.getByTestId('contacts-new').click();
    const create = page.getByRole('dialog', { name: 'New card' });
    await create.getByLabel('Kind').selectOption('domain');
    await create.getByLabel('Address or domain').fill(`@VIP-Corp-${stamp}.Example`);
    await expect(create.getByText(`Will be stored as ${domain}`)).toBeVisible();
    await expect(create.getByLabel('Layer')).toHaveValue('shared');
    await create.getByRole('button', { name: 'Continue' }).click();

    const entry = page.getByRole('dialog', { name: `Cards of ${domain}` });
    await expect(entry.getByRole('tab', { name: 'Organisation' })).toHaveAttribute('aria-selected', 'true');
    const form = entry.getByTestId('card-form-shared');
    await form.getByLabel('Display name').fill('VIP Corp');
    await form.getByLabel('Status').selectOption('vip');
    await form.getByLabel(/Language/).fill('fr');
    await form.getByLabel(/Organisation notes/).fill('Answer within the hour.');
    await form.getByTestId('card-shared-save').click();
    await expect(form.getByRole('status')).toHaveText('Card saved.');
    await expect(entry.getByTestId('trace-status')).toContainText('VIP');
    await expect(entry.getByTestId('trace-status')).toContainText('from the organisation’s card for the domain');
    await page.keyboard.press('Escape');
    const row = page.locator(`[data-testid="contact-row"][data-value="${domain}"]`);
    await expect(row).toContainText('VIP Corp');
    await expect(row).toContainText('Organisation');
  });

  await test.step('the organisation’s writing defaults are in Admin (opened, not changed: other journeys share the instance)', async () => {
    await page.getByRole('link', { name: 'Writing defaults' }).click();
    await expect(page).toHaveURL(/\/admin\/writing-defaults$/);
    await expect(page.getByRole('heading', { name: 'Organisation writing defaults' })).toBeVisible();
    await expect(page.getByTestId('org-defaults-form').getByLabel('Formality')).toBeVisible();
    await expect(page.getByTestId('org-defaults-form').getByLabel('Default signature')).toHaveCount(0);
  });

  const context = await signedInMember(browser, page.request, { email: `contacts-${stamp}@e2e.test`, name: 'Sam Member', password: 'contacts-password-42' });
  const member = await context.newPage();
  const memberId = ((await (await context.request.get('/api/v1/auth/me')).json()) as { member: { id: string } }).member.id;
  const mailboxAddress = `sales-${stamp}@e2e.test`;
  const mailboxId = randomUUID();
  const db = await e2eDatabase();
  try {
    await db.query(`INSERT INTO mailboxes (id, member_id, provider, address, status, updated_at) VALUES ($1, $2, 'imap', $3, 'active', now())`, [mailboxId, memberId, mailboxAddress]);
  } finally {
    await db.end();
  }

  await test.step('the member creates a signature in Settings → Signatures', async () => {
    await member.goto('/');
    await member.getByRole('link', { name: 'Signatures' }).click();
    await expect(member).toHaveURL(/\/settings\/signatures$/);
    await member.getByTestId('signature-new').click();
    const dialog = member.getByRole('dialog', { name: 'New signature' });
    await dialog.getByLabel('Name').fill('Sales');
    await dialog.getByLabel('Text').fill('Sam\nSales team');
    await dialog.getByRole('button', { name: 'Save signature' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(member.getByTestId('signature-row')).toContainText('Sales');
  });

  await test.step('the member makes it the mailbox’s default signature', async () => {
    await member.goto('/settings/mailboxes');
    await member.getByRole('button', { name: `Writing defaults of ${mailboxAddress}` }).click();
    const dialog = member.getByRole('dialog', { name: `Writing defaults of ${mailboxAddress}` });
    const form = dialog.getByTestId('mailbox-defaults-form');
    await form.getByLabel('Default signature').selectOption({ label: 'Sales' });
    await form.getByRole('button', { name: 'Save defaults' }).click();
    await expect(form.getByRole('status')).toHaveText('Defaults saved.');
  });

  await test.step('the member adds a tu/casual card of their own for one address of the domain', async () => {
    await member.goto('/contacts');
    // The organisation's card is listed for every member; its editor is not offered to them.
    await expect(member.locator(`[data-testid="contact-row"][data-value="${domain}"]`)).toBeVisible();
    await member.getByTestId('contacts-new').click();
    const create = member.getByRole('dialog', { name: 'New card' });
    await expect(create.getByLabel('Layer').locator('option[value="shared"]')).toHaveCount(0);
    await create.getByLabel('Address or domain').fill(address.toUpperCase());
    await create.getByRole('button', { name: 'Continue' }).click();
    const entry = member.getByRole('dialog', { name: `Cards of ${address}` });
    await expect(entry.getByRole('tab', { name: 'Organisation' })).toHaveCount(0);
    const form = entry.getByTestId('card-mine-form');
    await form.getByLabel('Formality').selectOption('tu');
    await form.getByLabel('Tone').selectOption('casual');
    await form.getByTestId('card-mine-save').click();
    await expect(form.getByRole('status')).toHaveText('Card saved.');
  });

  await test.step('seen from the mailbox, the resolution shows each field with its source', async () => {
    const entry = member.getByRole('dialog', { name: `Cards of ${address}` });
    await entry.getByTestId('entry-mailbox').selectOption(mailboxId);
    const trace = entry.getByTestId('contact-trace');
    await expect(trace.getByTestId('trace-formality')).toContainText('Tu (familiar)');
    await expect(trace.getByTestId('trace-formality')).toContainText('from your card for this address');
    await expect(trace.getByTestId('trace-tone')).toContainText('Casual');
    await expect(trace.getByTestId('trace-tone')).toContainText('from your card for this address');
    await expect(trace.getByTestId('trace-status')).toContainText('VIP');
    await expect(trace.getByTestId('trace-status')).toContainText('from the organisation’s card for the domain');
    await expect(trace.getByTestId('trace-displayName')).toContainText('VIP Corp');
    await expect(trace.getByTestId('trace-language')).toContainText('from the organisation’s card for the domain');
    await expect(trace.getByTestId('trace-signatureText')).toContainText('Sales team');
    await expect(trace.getByTestId('trace-signatureText')).toContainText('from your defaults for this mailbox');
    await expect(trace.getByTestId('trace-notes')).toContainText('Answer within the hour.');

    // The same resolution over the API, as a workflow reads it.
    const resolved = await context.request.get(`/api/v1/contacts/resolve?address=${encodeURIComponent(address)}&mailboxId=${mailboxId}`);
    expect(resolved.status()).toBe(200);
    expect(await resolved.json()).toMatchObject({
      address,
      resolved: { formality: 'tu', tone: 'casual', language: 'fr', displayName: 'VIP Corp', status: 'vip', signatureText: 'Sam\nSales team' },
      sources: { formality: 'member_contact', tone: 'member_contact', status: 'shared_domain', signatureText: 'member_mailbox_default' },
    });
  });

  await test.step('without the mailbox’s point of view, the mailbox default no longer applies', async () => {
    const entry = member.getByRole('dialog', { name: `Cards of ${address}` });
    await entry.getByTestId('entry-mailbox').selectOption('');
    await expect(entry.getByTestId('trace-signatureText')).toContainText('no card or default sets it');
  });
  await context.close();
});
