/**
 * The webmail's compose in a real browser: Reply all opens prefilled (the sender in To, the other
 * recipients in Cc, the mailbox's own address left out), Send shows "Sending…" with Undo for the
 * undo window, and Undo cancels the send; a new message sent to review lands in the review queue.
 * The mirror rows are written straight into the instance's database (no API writes mail).
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { e2eDatabase } from '../fixtures/database';
import { openComposeFrom } from '../fixtures/compose';
import { e2eAdmin } from '../fixtures/env';
import { signIn } from '../fixtures/session';

interface Seeded {
  mailboxId: string;
  threadId: string;
  address: string;
}

async function seed(): Promise<Seeded> {
  const db = await e2eDatabase();
  try {
    const member = await db.query<{ id: string }>('SELECT id FROM members WHERE email = $1', [e2eAdmin.email]);
    const mailboxId = randomUUID();
    const address = `desk-${mailboxId.slice(0, 8)}@example.test`;
    // Active, and its sync lease held by the test: the runner never syncs it (it has no server) nor marks it in error.
    await db.query(
      `INSERT INTO mailboxes (id, member_id, provider, address, status, lease_owner, lease_until, updated_at)
       VALUES ($1, $2, 'imap', $3, 'active', 'e2e-compose', now() + interval '1 hour', now())`,
      [mailboxId, member.rows[0].id, address],
    );
    for (const [key, role] of [['INBOX', 'inbox'], ['Sent', 'sent'], ['Trash', 'trash']]) {
      await db.query(`INSERT INTO mail_folders (id, mailbox_id, key, role, name, updated_at) VALUES ($1, $2, $3, $4, $3, now())`, [randomUUID(), mailboxId, key, role]);
    }
    const threadId = randomUUID();
    await db.query(`INSERT INTO mail_threads (id, mailbox_id, subject, last_message_at, updated_at) VALUES ($1, $2, 'Planning', now(), now())`, [threadId, mailboxId]);
    await db.query(
      `INSERT INTO mail_messages (id, mailbox_id, thread_id, provider_key, folder_key, subject, snippet, from_email, from_name, recipients,
         message_id_header, received_at, seen, body_text, body_complete, ingested_via, updated_at)
       VALUES ($1, $2, $3, $4, 'INBOX', 'Planning', 'Shall we meet?', 'alice@example.test', 'Alice', $5::jsonb, '<plan-1@example.test>', now(), true, 'Shall we meet?', true, 'delta', now())`,
      [randomUUID(), mailboxId, threadId, `INBOX\n1\n${randomUUID()}`, JSON.stringify({ to: [{ email: address }, { email: 'bob@example.test' }], cc: [{ email: 'carol@example.test' }] })],
    );
    await db.query(
      `UPDATE mail_threads SET message_count = 1, unread_count = 0, folder_keys = ARRAY['INBOX'], participants = '[{"name":"Alice","email":"alice@example.test"}]'::jsonb, participant_count = 1 WHERE id = $1`,
      [threadId],
    );
    await db.query('UPDATE mailboxes SET message_count = 1 WHERE id = $1', [mailboxId]);
    return { mailboxId, threadId, address };
  } finally {
    await db.end();
  }
}

async function outbound(mailboxId: string) {
  const db = await e2eDatabase();
  try {
    const rows = await db.query<{ subject: string; to_addrs: string[]; cc_addrs: string[]; review_status: string; send_status: string; in_reply_to: string | null }>(
      'SELECT subject, to_addrs, cc_addrs, review_status, send_status, in_reply_to FROM outbound_messages WHERE mailbox_id = $1 ORDER BY created_at',
      [mailboxId],
    );
    return rows.rows;
  } finally {
    await db.end();
  }
}

test('reply all prefilled, send, undo; a new message sent to review', async ({ page }) => {
  const seeded = await seed();
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  await page.goto(`/messages?mailbox=${seeded.mailboxId}&thread=${seeded.threadId}`);

  await openComposeFrom(page, page.getByTestId('answer-replyAll'));
  const form = page.getByTestId('compose-form');
  // The form waits for the reply's context (recipients, quote), read when the dialog opens: on a loaded machine
  // that once took longer than the 10 s an assertion waits. A failure to read it is shown, and fails here by name.
  const contextError = page.getByTestId('compose-context-error');
  await expect(form.or(contextError)).toBeVisible({ timeout: 30_000 });
  await expect(contextError).toHaveCount(0);
  await expect(page.getByTestId('compose-to')).toHaveValue('alice@example.test');
  await expect(page.getByTestId('compose-cc')).toHaveValue('bob@example.test, carol@example.test');
  await expect(page.getByTestId('compose-subject')).toHaveValue('Re: Planning');
  await expect(page.getByTestId('compose-body')).toHaveValue(/> Shall we meet\?/);
  await page.getByTestId('compose-body').press('Control+Home');
  await page.getByTestId('compose-body').pressSequentially('Tuesday works. ');
  await form.getByRole('button', { name: 'Send' }).click();

  const toast = page.getByTestId('send-toast');
  await expect(toast).toContainText('Sending…');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(toast).toContainText('Sending cancelled.');
  await expect.poll(async () => (await outbound(seeded.mailboxId)).map((row) => row.send_status)).toEqual(['cancelled']);
  const [reply] = await outbound(seeded.mailboxId);
  expect(reply).toMatchObject({ subject: 'Re: Planning', to_addrs: ['alice@example.test'], cc_addrs: ['bob@example.test', 'carol@example.test'], in_reply_to: '<plan-1@example.test>' });

  await page.getByTestId('compose-open').click();
  await expect(page.getByTestId('compose-from')).toHaveValue(seeded.mailboxId);
  await page.getByTestId('compose-to').fill('dave@example.test');
  await page.getByTestId('compose-subject').fill('Agenda');
  await page.getByTestId('compose-body').fill('Draft agenda attached soon.');
  await page.getByTestId('compose-review').check();
  await page.getByTestId('compose-form').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('send-toast')).toContainText('Sent to the review queue.');
  await expect.poll(async () => (await outbound(seeded.mailboxId)).length).toBe(2);
  expect((await outbound(seeded.mailboxId))[1]).toMatchObject({ subject: 'Agenda', to_addrs: ['dave@example.test'], review_status: 'pending' });
});
