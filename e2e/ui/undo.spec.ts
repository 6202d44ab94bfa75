/**
 * Journey of undoing a run's mailbox changes (issue 24 §4), against a real Dovecot: a member publishes
 * a mail workflow that labels, flags and files each incoming mail in Archive; a mail arrives and the
 * run succeeds (the mailbox shows it filed). On the run's page the member previews the undo (each
 * change named with the mail's subject), undoes it, and reads the result in place; the mail is back in
 * the inbox, unlabelled and unflagged, on the server itself; after a reload the run page still says it
 * was undone, and no longer offers to undo it. A second mail is filed; the workflow's "Undo runs…"
 * previews the window (only that run is left) and undoes it.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { ImapFlow } from 'imapflow';
import { labelToKeyword } from '@/server/mail/imap/sync/flags';
import { appendMessage, buildRawMessage, openTestImap } from '@/server/testing/mail-servers/deliver';
import type { MailUser } from '@/server/testing/mail-servers/dovecot';
import { e2eAdmin } from '../fixtures/env';
import { connectTestMailbox, useMailServers, waitForFirstSync, waitForMirrored } from '../fixtures/mail';
import { signedInMember } from '../fixtures/members';
import { signIn } from '../fixtures/session';
import { createFromJson, publish } from '../fixtures/workflows';

const account: MailUser = { user: 'undo-journey@example.test', password: 'undo-journey-imap-password' };

const servers = useMailServers([account]);

const position = { x: 0, y: 0 };
/** Every new mail: labelled `Processed`, flagged, then filed in Archive (the move last, as a person would). */
const fileGraph = {
  nodes: [
    { id: 'mail', type: 'trigger.mail', version: 1, name: 'Incoming mail', params: {}, position },
    { id: 'label', type: 'mail.label', version: 1, name: 'Label processed', params: { add: ['Processed'] }, position: { x: 240, y: 0 } },
    { id: 'flag', type: 'mail.flag', version: 1, name: 'Flag it', params: { flagged: true }, position: { x: 480, y: 0 } },
    { id: 'move', type: 'mail.move', version: 1, name: 'File in Archive', params: { folder: 'Archive' }, position: { x: 720, y: 0 } },
  ],
  connections: [
    { from: 'mail', output: 'main', to: 'label' },
    { from: 'label', output: 'main', to: 'flag' },
    { from: 'flag', output: 'main', to: 'move' },
  ],
};

/** Where the mail with this Message-ID is on the server: `folder keyword,keyword… flagged|unflagged`, or 'nowhere'. */
async function onServer(messageId: string): Promise<string> {
  const client: ImapFlow = await openTestImap({ server: servers.dovecot, ...account });
  try {
    for (const folder of ['INBOX', 'Archive']) {
      const box = await client.mailboxOpen(folder);
      if (box.exists === 0) continue;
      for (const entry of await client.fetchAll('1:*', { uid: true, flags: true, envelope: true })) {
        if (entry.envelope?.messageId !== messageId) continue;
        const flags = [...(entry.flags ?? [])];
        const keywords = flags.filter((flag) => !flag.startsWith('\\')).sort();
        return `${folder} ${keywords.join(',') || '-'} ${flags.includes('\\Flagged') ? 'flagged' : 'unflagged'}`;
      }
    }
    return 'nowhere';
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** Once the workflow has `count` runs, all succeeded: the newest one's id. */
async function finishedRun(request: APIRequestContext, workflowId: string, count: number): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/v1/executions?workflowId=${workflowId}&limit=5`);
        const { executions } = (await answer.json()) as { executions: { id: string; status: string }[] };
        id = executions[0]?.id ?? '';
        return executions.map((run) => run.status).join(',');
      },
      { timeout: 90_000, message: 'the new mail starts the workflow and the run finishes' },
    )
    .toBe(Array.from({ length: count }, () => 'succeeded').join(','));
  return id;
}

/** The mirrored message (by subject): its folder and labels, as the webmail lists them. */
async function mirrored(request: APIRequestContext, mailboxId: string, subject: string) {
  const answer = await request.get(`/api/v1/messages?mailboxId=${mailboxId}&limit=50`);
  const { messages } = (await answer.json()) as { messages: { subject: string | null; folderLabels: string[]; flags: { flagged: boolean } }[] };
  const found = messages.find((message) => message.subject === subject);
  return found ? `${found.folderLabels.join('+')} ${found.flags.flagged ? 'flagged' : 'unflagged'}` : 'missing';
}

test('a member undoes a run’s mailbox changes from the run page; the mail is back in the inbox', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const name = `File my mail ${stamp}`;
  const subject = `Invoice ${stamp}`;
  const messageId = `<undo-${stamp}@supplier.example.test>`;
  const processed = labelToKeyword('Processed');
  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  const context = await signedInMember(browser, page.request, { email: `undo-${stamp}@e2e.test`, name: 'Uma Undo', password: 'undo-member-password-42' });
  const member = await context.newPage();
  try {
    const mailboxId = await connectTestMailbox(context.request, servers, account);
    await waitForFirstSync(context.request, mailboxId);

    await member.goto('/');
    const workflowId = await createFromJson(member, name, fileGraph);
    await expect(member.getByRole('heading', { name, exact: true })).toBeVisible({ timeout: 30_000 });
    await publish(member, 'File every new mail');

    const raw = await buildRawMessage({ from: 'Supplier <billing@supplier.example.test>', to: account.user, subject, text: 'Please find the invoice attached.', messageId });
    await appendMessage({ server: servers.dovecot, ...account, raw });
    await waitForMirrored(context.request, mailboxId, subject);
    const runId = await finishedRun(context.request, workflowId, 1);

    await test.step('the run filed the mail in Archive, labelled and flagged, on the server itself', async () => {
      await expect.poll(() => onServer(messageId), { timeout: 60_000, message: 'the runner applies the run to the mailbox' }).toBe(`Archive ${processed} flagged`);
    });

    await test.step('the run page previews the undo: each change with the mail’s subject', async () => {
      await member.goto(`/executions/${runId}`);
      await expect(member.getByTestId('execution-detail-status')).toHaveText('Succeeded', { timeout: 30_000 });
      await expect(member.getByTestId('execution-undo-summary')).toHaveCount(0);
      await member.getByRole('button', { name: 'Undo mailbox changes' }).click();
      const dialog = member.getByRole('dialog', { name: 'Undo this run’s mailbox changes' });
      const willUndo = dialog.getByRole('region', { name: 'Will be undone (3)' });
      await expect(willUndo).toBeVisible({ timeout: 30_000 });
      // Newest first: the move, then the flag, then the label.
      await expect(willUndo.getByTestId('undo-item')).toHaveText([
        `Move back to “Inbox”“${subject}”`,
        `Remove the flag“${subject}”`,
        `Remove the label “Processed”“${subject}”`,
      ]);
      await expect(dialog.getByTestId('undo-skipped')).toHaveCount(0);
      await expect(dialog.getByTestId('undo-sent')).toHaveCount(0);
    });

    await test.step('confirmed: the result in place, item by item', async () => {
      const dialog = member.getByRole('dialog', { name: 'Undo this run’s mailbox changes' });
      await dialog.getByRole('button', { name: 'Undo 3 changes' }).click();
      await expect(dialog.getByTestId('undo-result-summary')).toHaveText('Undone3 restored, 0 skipped.', { timeout: 30_000 });
      await expect(dialog.getByTestId('undo-result')).toHaveCount(3);
      for (const row of await dialog.getByTestId('undo-result').all()) await expect(row).toHaveAttribute('data-status', 'undone');
      // Keyboard: Escape closes the dialog once the undo is done.
      await member.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(member.getByTestId('execution-undo-summary')).toContainText(/Undone on .+: 3 restored, 0 skipped/);
      await expect(member.getByRole('button', { name: 'Undo mailbox changes' })).toHaveCount(0);
    });

    await test.step('the mail is back in the inbox, unlabelled and unflagged: in the webmail and on the server', async () => {
      await expect.poll(() => mirrored(context.request, mailboxId, subject), { timeout: 30_000 }).toBe('INBOX unflagged');
      await expect.poll(() => onServer(messageId), { timeout: 60_000, message: 'the runner applies the undo to the mailbox' }).toBe('INBOX - unflagged');
    });

    await test.step('after a reload, the run page still says it was undone', async () => {
      await member.reload();
      await expect(member.getByTestId('execution-detail-status')).toHaveText('Succeeded', { timeout: 30_000 });
      await expect(member.getByTestId('execution-undo-summary')).toContainText(/Undone on .+: 3 restored, 0 skipped/);
      await expect(member.getByRole('button', { name: 'Undo mailbox changes' })).toHaveCount(0);
    });

    await test.step('a second mail filed; “Undo runs…” on the workflow previews, then undoes the runs of the last 24 hours not undone yet', async () => {
      const second = `Invoice ${stamp}-2`;
      const secondId = `<undo-${stamp}-2@supplier.example.test>`;
      await appendMessage({ server: servers.dovecot, ...account, raw: await buildRawMessage({ from: 'Supplier <billing@supplier.example.test>', to: account.user, subject: second, text: 'Another one.', messageId: secondId }) });
      await waitForMirrored(context.request, mailboxId, second);
      await finishedRun(context.request, workflowId, 2);
      await expect.poll(() => onServer(secondId), { timeout: 60_000, message: 'the runner applies the second run' }).toBe(`Archive ${processed} flagged`);

      await member.goto(`/workflows/${workflowId}`);
      await member.getByRole('button', { name: 'More actions' }).click();
      await member.getByRole('menuitem', { name: 'Undo runs…' }).click();
      const dialog = member.getByRole('dialog', { name: 'Undo this workflow’s runs' });
      await expect(dialog.getByTestId('bulk-undo-submit')).toBeDisabled();
      await dialog.getByRole('button', { name: 'Preview' }).click();
      // The first run is undone already: only the second is left in the window.
      await expect(dialog.getByTestId('bulk-undo-title')).toHaveText('1 run to undo', { timeout: 30_000 });
      await expect(dialog.getByTestId('bulk-undo-totals')).toHaveText('3 to undo, 0 to leave');
      await expect(dialog.getByTestId('bulk-undo-run')).toHaveCount(1);
      await expect(dialog.getByTestId('bulk-undo-run').getByRole('link')).toHaveText(`“${second}”`);
      await dialog.getByTestId('bulk-undo-submit').click();
      await expect(dialog.getByTestId('bulk-undo-title')).toHaveText('1 run handled', { timeout: 30_000 });
      await expect(dialog.getByTestId('bulk-undo-totals')).toHaveText('3 restored, 0 skipped');
      await expect(dialog.getByTestId('bulk-undo-run')).toHaveAttribute('data-outcome', 'undone');
      await expect.poll(() => onServer(secondId), { timeout: 60_000, message: 'the runner applies the bulk undo' }).toBe('INBOX - unflagged');
      await expect.poll(() => onServer(messageId)).toBe('INBOX - unflagged');
    });
  } finally {
    await context.close();
  }
});
