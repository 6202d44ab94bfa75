/**
 * Journey of the address book (issue 22, the Contacts page's part): an administrator adds the
 * organisation's VIP card for a domain; a member creates a signature, makes it a mailbox's default
 * signature, and adds a personal `tu`/casual card for one address of that domain; the entry's
 * resolution, seen from the mailbox, shows each field with the card or default that gave it; a draft a
 * workflow prepares for that address carries the mailbox's signature and the review names its
 * recipient. A second journey imports a small vCard address book with one bad line.
 * The member's mailbox is a real one (Dovecot and SMTP), connected through the API: connecting one
 * in the UI is mail.spec.ts's subject.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { startDovecot, type DovecotServer, type MailUser } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, waitForFirstSync } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

const account: MailUser = { user: 'contacts-sales@example.test', password: 'contacts-sales-imap-password' };

let dovecot: DovecotServer;
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  dovecot = await startDovecot({ users: [account] });
  smtp = await startSmtpServer({ users: [account], tls: 'none' });
});

test.afterAll(async () => {
  await smtp?.stop();
  await dovecot?.stop();
});

test('an administrator adds a shared VIP domain card; a member adds a tu/casual card and a mailbox signature; the trace shows every source', async ({ page, browser }) => {
  test.setTimeout(300_000);
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
  // A real mailbox (Dovecot and SMTP): the workflow's draft needs a connected one.
  const mailboxAddress = account.user;
  const mailboxId = await connectTestMailbox(context.request, { dovecot, smtp }, account);
  await waitForFirstSync(context.request, mailboxId);

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
    await member.keyboard.press('Escape');
  });

  await test.step('a draft a workflow prepares for that address carries the mailbox’s signature; the review names the recipient', async () => {
    const subject = `Your order ${stamp}`;
    const graph = {
      nodes: [
        { id: 'hook', type: 'trigger.webhook', version: 1, name: 'Order placed', params: {}, position: { x: 0, y: 0 } },
        { id: 'draft', type: 'mail.draft', version: 1, name: 'Thank the buyer', params: { mailboxId, to: [address], subject, bodyText: 'Merci pour ta commande !' }, position: { x: 260, y: 0 } },
      ],
      connections: [{ from: 'hook', output: 'main', to: 'draft' }],
    };
    const created = await context.request.post('/api/v1/workflows', { data: { name: `Thank VIP buyers ${stamp}`, graph } });
    expect(created.status(), await created.text()).toBe(201);
    const workflowId = ((await created.json()) as { workflow: { id: string } }).workflow.id;
    const published = await context.request.post(`/api/v1/workflows/${workflowId}/publish`, { data: { note: 'Contacts journey' } });
    expect(published.ok(), await published.text()).toBe(true);
    const hook = await context.request.post(`/api/v1/workflows/${workflowId}/webhook`);
    const { url } = (await hook.json()) as { url: string };
    const fired = await context.request.post(url, { data: { order: 42 } });
    expect(fired.status(), await fired.text()).toBe(202);
    const { executionId } = (await fired.json()) as { executionId: string };
    // The run ends with its draft made (what it answers if not says why, rather than an empty review).
    await expect
      .poll(
        async () => {
          const run = (await (await context.request.get(`/api/v1/executions/${executionId}`)).json()) as { status: string; error: unknown };
          return run.status === 'running' || run.status === 'queued' ? 'running' : JSON.stringify({ status: run.status, error: run.error ?? null });
        },
        { timeout: 60_000 },
      )
      .toBe(JSON.stringify({ status: 'succeeded', error: null }));

    await member.goto('/review');
    const row = member.getByTestId('review-row').filter({ hasText: subject });
    await expect(row).toBeVisible({ timeout: 60_000 });
    await row.getByRole('button').first().click();
    await expect(member.getByTestId('review-subject')).toHaveText(subject);
    const cards = member.getByTestId('review-recipient-cards');
    await expect(cards).toContainText('VIP Corp');
    await expect(cards).toContainText('VIP');
    const body = member.frameLocator('[data-testid="message-frame"]');
    await expect(body.getByText('Merci pour ta commande !')).toBeVisible();
    await expect(body.getByText('Sales team')).toBeVisible();
  });
  await context.close();
});

test('a member imports a small vCard address book with one bad line: the preview names it, the valid cards are imported, the export has them', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `contacts-import-${stamp}@e2e.test`, name: 'Ivo Importer', password: 'contacts-import-42' });
  const member = await context.newPage();
  // As a phone or another mail client exports it: 3.0 and 4.0 cards, folded lines, one broken line.
  const book = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    'FN:Léa Martin',
    'N:Martin;Léa;;;',
    `EMAIL;TYPE=INTERNET,WORK:lea.martin@atelier-${stamp}.example`,
    'NOTE:Met at the Lyon trade fair\\, prefers calls in the',
    '  morning',
    'END:VCARD',
    'BEGIN:VCARD',
    'VERSION:4.0',
    'FN:Tom Baker',
    'this line lost its colon when the file was edited by hand',
    `EMAIL:tom@baker-${stamp}.example`,
    'END:VCARD',
    'BEGIN:VCARD',
    'VERSION:4.0',
    'FN:Ana Silva',
    `EMAIL;PREF=1:Ana.Silva@Porto-${stamp}.Example`,
    'NOTE:Orders cork every quarter',
    'END:VCARD',
    '',
  ].join('\r\n');

  await test.step('the preview shows each card with what will happen, and the bad line with its reason', async () => {
    await member.goto('/contacts');
    await member.getByTestId('contacts-import').click();
    const dialog = member.getByRole('dialog', { name: 'Import contacts' });
    await dialog.getByTestId('import-file').setInputFiles({ name: 'phone-export.vcf', mimeType: 'text/vcard', buffer: Buffer.from(book, 'utf8') });
    const lines = dialog.getByTestId('import-line');
    await expect(lines).toHaveCount(3);
    await expect(lines.nth(0)).toHaveAttribute('data-action', 'create');
    await expect(lines.nth(1)).toHaveAttribute('data-action', 'error');
    await expect(lines.nth(1).getByTestId('import-line-problems')).toContainText('not a vCard content line');
    await expect(lines.nth(2)).toHaveAttribute('data-action', 'create');
    await expect(dialog.getByTestId('import-errors-note')).toBeVisible();
  });

  await test.step('importing writes the two valid cards only', async () => {
    const dialog = member.getByRole('dialog', { name: 'Import contacts' });
    await dialog.getByTestId('import-submit').click();
    await expect(dialog.getByTestId('import-result')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    // A member's card keeps the note (a display name is the organisation's card's, not imported into mine).
    await expect(member.locator(`[data-testid="contact-row"][data-value="lea.martin@atelier-${stamp}.example"]`)).toBeVisible();
    await expect(member.locator(`[data-testid="contact-row"][data-value="ana.silva@porto-${stamp}.example"]`)).toBeVisible();
    await expect(member.locator(`[data-testid="contact-row"][data-value="tom@baker-${stamp}.example"]`)).toHaveCount(0);
  });

  await test.step('the export as vCard has the imported cards', async () => {
    await member.getByTestId('contacts-export').click();
    const dialog = member.getByRole('dialog', { name: 'Export contacts' });
    const [download] = await Promise.all([member.waitForEvent('download'), dialog.getByTestId('export-download').click()]);
    const exported = await readFile((await download.path())!, 'utf8');
    expect(exported).toContain('BEGIN:VCARD');
    expect(exported).toContain(`lea.martin@atelier-${stamp}.example`);
    expect(exported).toContain(`ana.silva@porto-${stamp}.example`);
    expect(exported).toContain('Orders cork every quarter');
    expect(exported).not.toContain(`tom@baker-${stamp}.example`);
  });
  await context.close();
});
