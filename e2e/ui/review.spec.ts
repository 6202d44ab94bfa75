/**
 * Journey of the morning review: a member with three drafts waiting (prepared by a workflow; seeded
 * in the database, as a workflow run would write them) opens Review from the navigation, reads the
 * first draft in the sandboxed frame (its script gone), moves with j, rejects one with a reason (r),
 * corrects the subject of another inline and sends it, sends the last one with "Send selected", meets
 * the empty state, finds the rejection with its reason in the sending journal, and settles a send
 * whose outcome became unknown. Nothing is delivered by the review itself: the sent items are queued.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2eDatabase } from '../fixtures/database';
import { e2eAdmin } from '../fixtures/env';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';

test('a member reviews the morning queue: reads, rejects with a reason, corrects and sends, sends the selection, sees the journal', async ({ page, browser }) => {
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `review-${Date.now()}@e2e.test`, name: 'Rita Reviewer', password: 'review-password-42' });
  const member = await context.newPage();
  const me = await context.request.get('/api/v1/auth/me');
  const memberId = ((await me.json()) as { member: { id: string } }).member.id;

  const mailboxAddress = `sales-${Date.now()}@e2e.test`;
  const ids = { oldest: randomUUID(), middle: randomUUID(), newest: randomUUID() };
  const db = await e2eDatabase();
  try {
    const mailboxId = randomUUID();
    await db.query(`INSERT INTO mailboxes (id, member_id, provider, address, status, updated_at) VALUES ($1, $2, 'imap', $3, 'active', now())`, [mailboxId, memberId, mailboxAddress]);
    const drafts: [string, string, string, string][] = [
      [ids.oldest, 'Quote for ACME', 'buyer@acme.test', '<p>Dear buyer, the <b>quote</b> is attached.</p><script>window.parent.pwned = 1</script>'],
      [ids.middle, 'Re: delivery date', 'ops@globex.test', '<p>The delivery is planned for Monday.</p>'],
      [ids.newest, 'Welcome aboard', 'new@initech.test', '<p>Welcome!</p>'],
    ];
    for (const [index, [id, subject, to, html]] of drafts.entries()) {
      await db.query(
        `INSERT INTO outbound_messages (id, member_id, mailbox_id, mailbox_address, mode, origin, review_status, send_status, to_addrs, subject, body_text, body_html,
           message_id_header, workflow_name, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'send', 'workflow', 'pending', 'pending', ARRAY[$5], $6, $7, $8, $9, 'Sales replies', now() - make_interval(mins => $10), now())`,
        [id, memberId, mailboxId, mailboxAddress, to, subject, `${subject} (text)`, html, `<${id}@e2e.test>`, 30 - index],
      );
    }
  } finally {
    await db.end();
  }

  await test.step('Review is in the navigation and lists the three drafts, newest first, under their mailbox', async () => {
    await member.goto('/');
    await member.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Review', exact: true }).click();
    await expect(member).toHaveURL(/\/review$/);
    await expect(member.getByRole('heading', { name: 'Morning review' })).toBeVisible();
    await expect(member.getByTestId('review-pending-count')).toHaveText('3 items waiting');
    const queue = member.getByTestId('review-queue');
    await expect(queue.getByRole('heading', { name: mailboxAddress })).toBeVisible();
    await expect(queue.getByTestId('review-row')).toHaveCount(3);
    await expect(queue.getByTestId('review-row').first()).toContainText('Welcome aboard');
    await expect(member.getByTestId('review-subject')).toHaveText('Welcome aboard');
  });

  await test.step('j moves down; the draft shows in the sandboxed frame without its script', async () => {
    await member.keyboard.press('j');
    await member.keyboard.press('j');
    await expect(member.getByTestId('review-subject')).toHaveText('Quote for ACME');
    const frame = member.getByTestId('message-frame');
    await expect(frame).toHaveAttribute('sandbox', 'allow-same-origin allow-popups allow-popups-to-escape-sandbox');
    const srcdoc = (await frame.getAttribute('srcdoc')) ?? '';
    expect(srcdoc).toContain('<b>quote</b>');
    expect(srcdoc).not.toContain('<script');
    await expect(member.frameLocator('[data-testid="message-frame"]').getByText('the quote is attached')).toBeVisible();
  });

  await test.step('the shortcuts are listed in the help', async () => {
    await member.keyboard.press('?');
    await expect(member.getByTestId('review-shortcuts')).toContainText('Snooze until tomorrow morning');
    await member.keyboard.press('Escape');
  });

  await test.step('r rejects with a reason', async () => {
    await member.keyboard.press('r');
    const dialog = member.getByRole('alertdialog', { name: 'Reject this draft?' });
    await dialog.getByLabel('Reason').fill('Wrong price in the quote');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await expect(member.getByTestId('review-notice')).toContainText('Rejected.');
    await expect(member.getByTestId('review-row')).toHaveCount(2);
    await expect(member.getByTestId('review-pending-count')).toHaveText('2 items waiting');
  });

  await test.step('a draft is corrected inline and sent (queued, not delivered by the review)', async () => {
    await member.getByTestId('review-row').filter({ hasText: 'Re: delivery date' }).getByRole('button').click();
    await expect(member.getByTestId('review-subject')).toHaveText('Re: delivery date');
    await member.getByRole('button', { name: 'Correct' }).click();
    const form = member.getByTestId('review-corrections');
    await form.getByLabel('Subject', { exact: true }).fill('Re: delivery date (confirmed)');
    await form.getByLabel('Cc', { exact: true }).fill('not an address');
    await expect(form.getByRole('alert')).toContainText('not an address');
    await form.getByLabel('Cc', { exact: true }).fill('boss@globex.test');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(member.getByTestId('review-notice')).toContainText('Queued for sending');
    await expect(member.getByTestId('review-row')).toHaveCount(1);
  });

  await test.step('the last one goes with Send selected, then the queue is empty', async () => {
    await member.getByRole('checkbox', { name: 'Select “Welcome aboard”' }).check();
    await member.getByTestId('review-send-selected').click();
    await expect(member.getByTestId('review-notice')).toContainText('1 message queued');
    await expect(member.getByText('Nothing to review')).toBeVisible();
  });

  await test.step('the sending journal shows the rejection with its reason', async () => {
    await member.getByTestId('review-journal-link').click();
    await expect(member).toHaveURL(/\/sending$/);
    const row = member.getByTestId('journal-row').filter({ hasText: 'Quote for ACME' });
    await expect(row).toContainText('Rejected');
    await expect(row).toContainText('Reason: Wrong price in the quote');
  });

  // The send pipeline lost track of the corrected send (its runner died mid-send): its outcome is unknown.
  const pipeline = await e2eDatabase();
  try {
    // Its job is gone with the runner (so a send pipeline running beside this test cannot move it again).
    await pipeline.query(`DELETE FROM graphile_worker._private_jobs WHERE key = $1`, [`mail-send:${ids.middle}`]);
    await pipeline.query(`UPDATE outbound_messages SET send_status = 'unknown', send_runner_id = 'gone' WHERE id = $1`, [ids.middle]);
  } finally {
    await pipeline.end();
  }

  await test.step('a send whose outcome is unknown is settled from its own queue', async () => {
    await member.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Review', exact: true }).click();
    await member.getByTestId('review-queue-unknown').click();
    await expect(member.getByTestId('review-row')).toHaveCount(1);
    await expect(member.getByTestId('review-subject')).toHaveText('Re: delivery date (confirmed)');
    const alert = member.getByTestId('review-unknown');
    await expect(alert).toContainText('This send may or may not have left');
    await alert.getByRole('button', { name: 'It was sent' }).click();
    await expect(member.getByTestId('review-notice')).toContainText('Settled.');
    await expect(member.getByText('No send in doubt')).toBeVisible();
  });

  const check = await e2eDatabase();
  try {
    const { rows } = await check.query<{ id: string; review_status: string; send_status: string; subject: string; cc_addrs: string[] }>(
      'SELECT id, review_status, send_status, subject, cc_addrs FROM outbound_messages WHERE id = ANY($1::uuid[])',
      [Object.values(ids)],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(ids.oldest)?.review_status).toBe('rejected');
    expect(byId.get(ids.middle)).toMatchObject({ review_status: 'sent', send_status: 'done', subject: 'Re: delivery date (confirmed)', cc_addrs: ['boss@globex.test'] });
    expect(byId.get(ids.newest)?.review_status).toBe('sent');
  } finally {
    await check.end();
  }
  await context.close();
});
