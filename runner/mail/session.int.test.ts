/**
 * The sync engine against a real Dovecot: initial sync, delta, flags, expunges, UIDVALIDITY changes,
 * processing_only, backfill, resync, webmail operations, and the error/recovery moves of a mailbox.
 */
import { randomUUID } from 'node:crypto';
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { sealImapPassword } from '../../server/mail/imap/mailbox-settings';
import { createMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { appendMessages, buildRawMessage, openTestImap, type AppendOptions } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '../../server/testing/mail-servers/dovecot';
import { useTestDatabase } from '../../server/testing/test-database';
import { MailboxSession, type SessionOptions, type WorkRequest } from './session';

await useTestDatabase();

let server: DovecotServer;
beforeAll(async () => {
  server = await startDovecot({ users: [] });
});
afterAll(async () => {
  await server?.stop();
});

let counter = 0;
async function newUser(): Promise<MailUser> {
  counter += 1;
  const user = { user: `u${counter}-${randomUUID().slice(0, 6)}@example.test`, password: `pw-${randomUUID()}` };
  await server.addUser(user);
  return user;
}

async function message(subject: string, fields: Partial<Parameters<typeof buildRawMessage>[0]> = {}): Promise<Buffer> {
  return buildRawMessage({ from: 'Alice <alice@example.test>', to: 'me@example.test', subject, text: `Body of ${subject}`, ...fields });
}

async function deliver(user: MailUser, messages: AppendOptions[]) {
  return appendMessages({ server, ...user }, messages);
}

async function withImap<T>(user: MailUser, use: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = await openTestImap({ server, ...user });
  try {
    return await use(client);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

async function setup(options: { syncMode?: 'full' | 'processing_only'; session?: SessionOptions } = {}) {
  const user = await newUser();
  const member = await createMember();
  const mailbox = await createImapMailbox(member, server, user, { syncMode: options.syncMode });
  const session = new MailboxSession(mailbox.id, options.session);
  const run = async (work: WorkRequest = { delta: true }) => {
    const result = await session.run(work, new AbortController().signal);
    if (result.outcome === 'failed') throw new Error(`sync failed: ${JSON.stringify(result.failure)}`);
    return result;
  };
  return { user, member, mailbox, session, run };
}

const messagesOf = (mailboxId: string) =>
  db().mailMessage.findMany({ where: { mailboxId }, orderBy: [{ folderKey: 'asc' }, { uid: 'asc' }] });

describe('sync against Dovecot', () => {
  it('initial sync mirrors recent mail of every folder with folders, flags, threads and mailbox fields', async () => {
    const { user, mailbox, session, run } = await setup();
    await deliver(user, [
      // Older than the initial window and below it: left for a backfill.
      { raw: await message('Ancient'), internalDate: new Date(Date.now() - 400 * 24 * 3600_000) },
      { raw: await message('First', { messageId: '<first@x>' }), flags: ['\\Seen'] },
      { raw: await message('Re: First', { messageId: '<second@x>', inReplyTo: '<first@x>' }), flags: ['\\Flagged', 'work'] },
      { folder: 'Sent', raw: await message('Outgoing', { from: `me <${mailbox.address}>` }) },
    ]);
    await run();
    await session.close();

    const messages = await messagesOf(mailbox.id);
    expect(messages.map((row) => [row.folderKey, row.subject, row.seen, row.flagged, row.sent, row.labels, row.ingestedVia])).toEqual([
      ['INBOX', 'First', true, false, false, [], 'initial'],
      ['INBOX', 'Re: First', false, true, false, ['work'], 'initial'],
      ['Sent', 'Outgoing', false, false, true, [], 'initial'],
    ]);
    expect(messages[2]!.isFromSelf).toBe(true);
    expect(messages[0]!.providerKey).toMatch(/^INBOX\n\d+\n2$/);
    expect(messages[0]!.bodyText).toContain('Body of First');
    expect(messages[0]!.bodyComplete).toBe(true);
    expect(messages[0]!.threadId).toBe(messages[1]!.threadId);

    const folders = await db().mailFolder.findMany({ where: { mailboxId: mailbox.id }, orderBy: { key: 'asc' } });
    expect(folders.map((folder) => [folder.key, folder.role, folder.selectable])).toEqual([
      ['Archive', 'archive', true],
      ['Drafts', 'drafts', true],
      ['INBOX', 'inbox', true],
      ['Junk', 'spam', true],
      ['Sent', 'sent', true],
      ['Trash', 'trash', true],
    ]);
    const inbox = folders.find((folder) => folder.key === 'INBOX')!;
    expect(inbox).toMatchObject({ syncedUid: 3n, oldestUid: 2n, uidNext: 4n });
    expect(inbox.highestModseq).not.toBeNull();

    const after = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(after.messageCount).toBe(3);
    expect(after.lastDeltaAt).not.toBeNull();
    expect(after.lastSuccessfulSyncAt).not.toBeNull();
    expect(after.initialSyncDoneAt).not.toBeNull();
    expect(after.status).toBe('active');
  });

  it('a delta picks up new mail, flag changes and expunges, and counts stay exact', async () => {
    const { user, mailbox, session, run } = await setup();
    await deliver(user, [{ raw: await message('One') }, { raw: await message('Two') }, { raw: await message('Three') }]);
    await run();
    await deliver(user, [{ raw: await message('Four') }]);
    await withImap(user, async (client) => {
      await client.mailboxOpen('INBOX');
      await client.messageFlagsAdd('1', ['\\Seen'], { uid: true });
      await client.messageDelete('2', { uid: true });
    });
    await run();
    await session.close();

    const messages = await messagesOf(mailbox.id);
    expect(messages.map((row) => [row.subject, row.uid, row.seen, row.ingestedVia])).toEqual([
      ['One', 1n, true, 'initial'],
      ['Three', 3n, false, 'initial'],
      ['Four', 4n, false, 'delta'],
    ]);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(3);
    expect(await db().mailThread.count({ where: { mailboxId: mailbox.id } })).toBe(3);
  });

  it('without CONDSTORE/QRESYNC, flags are compared and expunges found by UID SEARCH', async () => {
    const { user, mailbox, session, run } = await setup({ session: { imap: { qresync: false, disableAutoEnable: true } } });
    await deliver(user, [{ raw: await message('One') }, { raw: await message('Two') }, { raw: await message('Three') }]);
    await run();
    const inbox = await db().mailFolder.findFirstOrThrow({ where: { mailboxId: mailbox.id, key: 'INBOX' } });
    expect(inbox.highestModseq).toBeNull();
    await withImap(user, async (client) => {
      await client.mailboxOpen('INBOX');
      await client.messageFlagsAdd('3', ['\\Flagged', '\\Seen'], { uid: true });
      await client.messageDelete('1', { uid: true });
    });
    await run();
    await session.close();
    expect((await messagesOf(mailbox.id)).map((row) => [row.subject, row.seen, row.flagged])).toEqual([
      ['Two', false, false],
      ['Three', true, true],
    ]);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(2);
  });

  it('a UIDVALIDITY change (folder recreated) replaces the folder\'s mirror without duplicates', async () => {
    const { user, mailbox, session, run } = await setup();
    await deliver(user, [{ folder: 'Archive', raw: await message('Kept A', { messageId: '<a@x>' }) }, { folder: 'Archive', raw: await message('Kept B', { messageId: '<b@x>' }) }]);
    await run();
    const before = await messagesOf(mailbox.id);
    expect(before).toHaveLength(2);
    await withImap(user, async (client) => {
      await client.mailboxDelete('Archive');
      await client.mailboxCreate('Archive');
    });
    await deliver(user, [
      { folder: 'Archive', raw: await message('Kept A', { messageId: '<a@x>' }) },
      { folder: 'Archive', raw: await message('Kept B', { messageId: '<b@x>' }) },
      { folder: 'Archive', raw: await message('New C', { messageId: '<c@x>' }) },
    ]);
    await run();
    await session.close();

    const after = await messagesOf(mailbox.id);
    expect(after.map((row) => row.subject)).toEqual(['Kept A', 'Kept B', 'New C']);
    expect(new Set(after.map((row) => row.providerKey)).size).toBe(3);
    expect(after[0]!.uidValidity).not.toBe(before[0]!.uidValidity);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(3);
  });

  it('processing_only keeps metadata, signals and flags but no bodies or attachment content', async () => {
    const { user, mailbox, session, run } = await setup({ syncMode: 'processing_only' });
    await deliver(user, [
      {
        raw: await message('Newsletter', { headers: { 'List-Id': '<news.example.test>' }, attachments: [{ filename: 'a.pdf', content: Buffer.from('%PDF-1.4') }] }),
        flags: ['\\Seen'],
      },
    ]);
    await run();
    await session.close();
    const [row] = await messagesOf(mailbox.id);
    expect(row).toMatchObject({ subject: 'Newsletter', seen: true, isMailingList: true, listId: 'news.example.test', bodyText: null, bodyHtml: null, bodyComplete: false, hasAttachments: true, snippet: 'Body of Newsletter' });
    const attachments = await db().mailAttachment.findMany({ where: { messageId: row!.id } });
    expect(attachments).toMatchObject([{ filename: 'a.pdf', blobKey: null }]);

    // Only recent mail: a backfill request completes at once with nothing added.
    await db().mailbox.update({ where: { id: mailbox.id }, data: { backfillStatus: 'pending' } });
    await run({ backfill: true });
    await session.close();
    expect(await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).toMatchObject({ backfillStatus: 'done', backfillProgressPct: 100, messageCount: 1 });
  });

  it('backfill walks older mail down to the requested date and reports progress', async () => {
    const { user, mailbox, session, run } = await setup();
    const day = 24 * 3600_000;
    await deliver(user, [
      { raw: await message('Very old'), internalDate: new Date(Date.now() - 300 * day) },
      { raw: await message('Old'), internalDate: new Date(Date.now() - 100 * day) },
      { raw: await message('Older'), internalDate: new Date(Date.now() - 200 * day) },
      { raw: await message('Recent'), internalDate: new Date(Date.now() - 2 * day) },
    ]);
    await run();
    expect((await messagesOf(mailbox.id)).map((row) => row.subject)).toEqual(['Recent']);

    await db().mailbox.update({ where: { id: mailbox.id }, data: { backfillStatus: 'pending', backfillSince: new Date(Date.now() - 250 * day) } });
    const result = await run({ backfill: true });
    await session.close();
    expect(result).toMatchObject({ outcome: 'ok', more: { backfill: false } });
    const rows = await messagesOf(mailbox.id);
    expect(rows.map((row) => [row.subject, row.ingestedVia])).toEqual([
      ['Old', 'backfill'],
      ['Older', 'backfill'],
      ['Recent', 'initial'],
    ]);
    const after = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(after).toMatchObject({ backfillStatus: 'done', backfillProgressPct: 100, messageCount: 3 });
    expect(after.backfillOldestAt!.getTime()).toBeLessThan(Date.now() - 150 * day);
  });

  it('a backfill run past its time ends after one batch, never none, and the runs after it finish the walk without a gap or a duplicate', async () => {
    // No time at all: each run fetches its first batch (5 messages) and hands the connection back.
    const { user, mailbox, session, run } = await setup({ session: { limits: { messages: 5 }, backfillRunMs: 0 } });
    const day = 24 * 3600_000;
    const old = await Promise.all(Array.from({ length: 12 }, async (_, index) => ({ raw: await message(`Old ${index}`), internalDate: new Date(Date.now() - (100 + index) * day) })));
    await deliver(user, [...old, { raw: await message('Recent'), internalDate: new Date(Date.now() - day) }]);
    await run();
    await db().mailbox.update({ where: { id: mailbox.id }, data: { backfillStatus: 'pending', backfillSince: null } });
    const first = await run({ backfill: true });
    expect(first).toMatchObject({ outcome: 'ok', more: { backfill: true } });
    expect((await messagesOf(mailbox.id)).filter((row) => row.ingestedVia === 'backfill')).toHaveLength(5);
    const running = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(running.backfillStatus).toBe('running');
    // 6 of 13 mirrored, 7 left: progress counts what the run did not fetch.
    expect(running.backfillProgressPct).toBeCloseTo(46.2, 1);
    let runs = 1;
    while ((await run({ backfill: true })).outcome === 'ok' && runs < 10) {
      runs += 1;
      if ((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).backfillStatus === 'done') break;
    }
    await session.close();
    expect(runs).toBe(3);
    const rows = await messagesOf(mailbox.id);
    expect(rows.map((row) => row.subject).sort()).toEqual([...old.map((_, index) => `Old ${index}`), 'Recent'].sort());
    expect(new Set(rows.map((row) => row.providerKey)).size).toBe(13);
    expect(await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).toMatchObject({ backfillStatus: 'done', backfillProgressPct: 100, messageCount: 13 });
  });

  it('resync refreshes flags and inserts what the mirror misses, silently, and nothing else', async () => {
    const { user, mailbox, session, run } = await setup();
    await deliver(user, [{ raw: await message('Kept') }, { raw: await message('Lost') }]);
    await run();
    const lost = (await messagesOf(mailbox.id)).find((row) => row.subject === 'Lost')!;
    await db().mailMessage.delete({ where: { id: lost.id } });
    await withImap(user, async (client) => {
      await client.mailboxOpen('INBOX');
      await client.messageFlagsAdd('1', ['\\Flagged'], { uid: true });
    });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { syncState: { resyncSince: new Date(Date.now() - 24 * 3600_000).toISOString() } } });
    await run({ resync: true });
    await session.close();
    const rows = await messagesOf(mailbox.id);
    expect(rows.map((row) => [row.subject, row.flagged, row.ingestedVia])).toEqual([
      ['Kept', true, 'initial'],
      ['Lost', false, 'resync'],
    ]);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).syncState).toEqual({});
  });

  it('applies webmail operations on the server: archive moves the message and the mirror takes its new identity', async () => {
    const { user, member, mailbox, session, run } = await setup();
    await deliver(user, [{ raw: await message('To archive', { messageId: '<arch@x>' }) }, { raw: await message('To read') }, { raw: await message('To delete') }]);
    await run();
    const [toArchive, toRead, toDelete] = await messagesOf(mailbox.id);
    // What the web side does at once: the mirror shows the result, the operations wait for the runner.
    await db().mailMessage.update({ where: { id: toArchive!.id }, data: { folderKey: 'Archive' } });
    await db().mailOperation.createMany({
      data: [
        { memberId: member.id, mailboxId: mailbox.id, messageId: toArchive!.id, action: 'archive', params: { fromFolderKey: 'INBOX', toFolderKey: 'Archive' } },
        { memberId: member.id, mailboxId: mailbox.id, messageId: toRead!.id, action: 'markRead' },
        { memberId: member.id, mailboxId: mailbox.id, messageId: toRead!.id, action: 'labels', params: { labelsAdd: ['Client X'] } },
        // A permanent delete leaves the mirror at once and names the server identity in params.
        { memberId: member.id, mailboxId: mailbox.id, messageId: toDelete!.id, action: 'deletePermanently', params: { fromFolderKey: 'INBOX', providerKey: toDelete!.providerKey } },
      ],
    });
    await db().mailMessage.delete({ where: { id: toDelete!.id } });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { messageCount: { decrement: 1 } } });
    await run({ operations: true, delta: true });
    await session.close();

    const server = await withImap(user, async (client) => {
      await client.mailboxOpen('INBOX');
      const inbox = await client.fetchAll('1:*', { uid: true, flags: true, envelope: true });
      await client.mailboxOpen('Archive');
      const archive = await client.fetchAll('1:*', { uid: true, envelope: true });
      return { inbox, archive };
    });
    expect(server.archive.map((entry) => entry.envelope?.subject)).toEqual(['To archive']);
    expect(server.inbox.map((entry) => [entry.envelope?.subject, [...(entry.flags ?? [])].sort()])).toEqual([['To read', ['\\Seen', 'mf.Q2xpZW50IFg']]]);

    const rows = await messagesOf(mailbox.id);
    expect(rows.map((row) => [row.subject, row.folderKey, row.seen, row.labels])).toEqual([
      ['To archive', 'Archive', false, []],
      ['To read', 'INBOX', true, ['Client X']],
    ]);
    expect(rows[0]!.providerKey).toBe(`Archive\n${rows[0]!.uidValidity}\n${server.archive[0]!.uid}`);
    expect(await db().mailOperation.count({ where: { mailboxId: mailbox.id, status: 'done' } })).toBe(4);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(2);
  });

  it('applies a move then a label of one message in one batch: the label finds the message under its new identity', async () => {
    const { user, member, mailbox, session, run } = await setup();
    await deliver(user, [{ raw: await message('Moved then labelled', { messageId: '<move-label@x>' }) }]);
    await run();
    const [moved] = await messagesOf(mailbox.id);
    // As an undo (or a workflow moving, then labelling) leaves them: two operations on one message, read in one batch.
    await db().mailMessage.update({ where: { id: moved!.id }, data: { folderKey: 'Archive', labels: ['Done'] } });
    await db().mailOperation.createMany({
      data: [
        { memberId: member.id, mailboxId: mailbox.id, messageId: moved!.id, action: 'move', params: { fromFolderKey: 'INBOX', toFolderKey: 'Archive' } },
        { memberId: member.id, mailboxId: mailbox.id, messageId: moved!.id, action: 'labels', params: { labelsAdd: ['Done'] } },
      ],
    });
    await run({ operations: true, delta: true });
    await session.close();

    const archive = await withImap(user, async (client) => {
      await client.mailboxOpen('Archive');
      return client.fetchAll('1:*', { uid: true, flags: true, envelope: true });
    });
    // Keywords only (`\\Recent` depends on which session saw the message first).
    expect(archive.map((entry) => [entry.envelope?.subject, [...(entry.flags ?? [])].filter((flag) => !flag.startsWith('\\'))])).toEqual([['Moved then labelled', ['Done']]]);
    // The same mirror row, under the message's new identity (before, the label's stale identity removed it).
    const rows = await messagesOf(mailbox.id);
    expect(rows.map((row) => [row.id, row.folderKey, row.labels])).toEqual([[moved!.id, 'Archive', ['Done']]]);
    expect(await db().mailOperation.count({ where: { mailboxId: mailbox.id, status: 'done' } })).toBe(2);
  });

  it('moves to error with one notification on an authentication failure, and back to active with mailbox.recovered', async () => {
    const { user, member, mailbox, session } = await setup();
    const credential = await db().credential.findUniqueOrThrow({ where: { id: mailbox.credentialId! } });
    await db().credential.update({ where: { id: credential.id }, data: { dataEnc: sealImapPassword(credential.id, 'wrong-password') } });

    const failed = await session.run({ delta: true }, new AbortController().signal);
    expect(failed).toMatchObject({ outcome: 'failed', failure: { kind: 'auth', code: 'imap.auth_failed' }, retryInMs: 30_000 });
    const again = await session.run({ delta: true }, new AbortController().signal);
    expect(again).toMatchObject({ outcome: 'failed', retryInMs: 60_000 });
    const broken = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(broken.status).toBe('error');
    expect(broken.failureCount).toBe(2);
    expect(broken.lastError).toMatchObject({ kind: 'auth', code: 'imap.auth_failed', operation: 'sync', httpStatus: null, at: expect.any(String), message: expect.any(String) });
    expect(JSON.stringify(broken.lastError)).not.toContain('wrong-password');
    expect(await db().notification.findMany({ where: { memberId: member.id }, select: { kind: true, params: true } })).toEqual([
      { kind: 'mailbox.error', params: { mailboxId: mailbox.id, address: mailbox.address, kind: 'auth' } },
    ]);

    await db().credential.update({ where: { id: credential.id }, data: { dataEnc: sealImapPassword(credential.id, user.password) } });
    const healed = await session.run({ delta: true }, new AbortController().signal);
    await session.close();
    expect(healed.outcome).toBe('ok');
    const recovered = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(recovered).toMatchObject({ status: 'active', failureCount: 0, lastError: null });
    expect((await db().notification.findMany({ where: { memberId: member.id }, orderBy: { createdAt: 'asc' } })).map((row) => row.kind)).toEqual(['mailbox.error', 'mailbox.recovered']);
  });

  it('an unreachable server counts failures and moves to error after three in a row', async () => {
    const { member, mailbox, session } = await setup();
    await db().mailbox.update({ where: { id: mailbox.id }, data: { settings: { ...(mailbox.settings as object), imapPort: 1 } } });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const result = await session.run({ delta: true }, new AbortController().signal);
      expect(result).toMatchObject({ outcome: 'failed', failure: { kind: 'unreachable' } });
      expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).status).toBe(attempt < 3 ? 'active' : 'error');
    }
    expect(await db().notification.count({ where: { memberId: member.id, kind: 'mailbox.error' } })).toBe(1);
  });
});
