/**
 * The initial sync shows the newest mail first (issue 25 §3): the inbox's newest messages are the
 * first batch committed, announced by the usual live event, before the window is read from its oldest
 * UID up; nothing of the window is skipped by reading it out of order; a run stopped right after that
 * batch keeps the window's boundary; and what a body says is searchable once the sync has ended.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { openAdapter } from '../../server/mail/adapters';
import { newestFirstCount } from '../../server/mail/provider';
import { reconcileFolders } from '../../server/mail/mirror/folders';
import { createMirrorSink } from '../../server/mail/mirror/writer';
import type { MirrorSink } from '../../server/mail/provider';
import { createMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { appendMessages, buildRawMessage, type AppendOptions } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '../../server/testing/mail-servers/dovecot';
import { call } from '../../server/testing/rest-client';
import { useTestDatabase } from '../../server/testing/test-database';
import { MailboxSession } from './session';

const databaseUrl = await useTestDatabase();

let server: DovecotServer;
const user = { user: `newest-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
const inboxCount = 180;
/** Appended among the newest with an INTERNALDATE outside the initial window: SEARCH SINCE misses it. */
const oldDatedAt = inboxCount - 10;
const minute = 60_000;

beforeAll(async () => {
  server = await startDovecot({ users: [user] });
  const messages: AppendOptions[] = [];
  for (let index = 0; index < inboxCount; index += 1) {
    const oldDated = index === oldDatedAt;
    const raw = await buildRawMessage({
      from: `Sender ${index % 7} <s${index % 7}@example.test>`,
      to: user.user,
      subject: oldDated ? 'Forwarded from an old archive' : `Report ${index}`,
      messageId: `<n${index}@newest.test>`,
      // A word only the body holds, in its first line (the preview the search reads).
      text: `Codeword zq${index}x for this one.\n${'Filler text. '.repeat(30)}`,
    });
    const internalDate = oldDated ? new Date(Date.now() - 400 * 24 * 3600_000) : new Date(Date.now() - (inboxCount - index) * minute);
    messages.push({ raw, internalDate });
  }
  for (let index = 0; index < 20; index += 1) {
    const raw = await buildRawMessage({ from: 'a@example.test', to: user.user, subject: `Filed ${index}`, messageId: `<a${index}@newest.test>`, text: 'Filed away.' });
    messages.push({ folder: 'Archive', raw, internalDate: new Date(Date.now() - (20 - index) * minute) });
  }
  await appendMessages({ server, ...user }, messages);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** `mail.changed` events of one mailbox sent while `run` runs, in the order they were committed. */
async function mailEventsDuring(mailboxId: string, run: () => Promise<unknown>): Promise<{ reason: string; threadIds: string[] }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seen: { reason: string; threadIds: string[] }[] = [];
  client.on('notification', (message) => {
    const parsed = JSON.parse(message.payload ?? '{}') as { data?: { packet?: { data?: [string, { mailboxId?: string; reason: string; threadIds?: string[] }] } } };
    const [event, payload] = parsed.data?.packet?.data ?? [];
    if (event === 'mail.changed' && payload?.mailboxId === mailboxId) seen.push({ reason: payload.reason, threadIds: payload.threadIds ?? [] });
  });
  await client.query('LISTEN "socket.io#/"');
  try {
    await run();
    // Notifications come after their commit; a round trip on the listening connection flushes them.
    await client.query('SELECT 1');
    await sleep(50);
    return seen;
  } finally {
    await client.end();
  }
}

it('commits the inbox’s newest messages first, announces them, then mirrors every UID of the window once', async () => {
  const member = await createMember();
  const mailbox = await createImapMailbox(member, server, user);
  const session = new MailboxSession(mailbox.id, { initialDays: 30, initialMaxPerFolder: 1_000_000, limits: { messages: 25 } });
  const events = await mailEventsDuring(mailbox.id, async () => {
    const result = await session.run({ delta: true }, new AbortController().signal);
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok' });
  });
  await session.close();

  const rows = await db().mailMessage.findMany({
    where: { mailboxId: mailbox.id },
    select: { uid: true, folderKey: true, subject: true, ingestedVia: true, ingestedAt: true, threadId: true },
  });
  const inbox = rows.filter((row) => row.folderKey === 'INBOX');
  // Every UID once, the old-dated message among the newest included (it sits inside the first batch's range).
  expect(inbox).toHaveLength(inboxCount);
  expect(new Set(inbox.map((row) => row.uid)).size).toBe(inboxCount);
  expect(inbox.some((row) => row.subject === 'Forwarded from an old archive')).toBe(true);
  expect(rows.filter((row) => row.folderKey === 'Archive')).toHaveLength(20);
  expect(new Set(rows.map((row) => row.ingestedVia))).toEqual(new Set(['initial']));
  expect(rows.every((row) => row.threadId !== null)).toBe(true);

  // Each batch is one transaction, and a row's ingested_at is its transaction's start: the first batch
  // committed holds the highest UIDs of the inbox, the newest 50 of the window and the one between them.
  const firstAt = Math.min(...rows.map((row) => row.ingestedAt.getTime()));
  const firstBatch = rows.filter((row) => row.ingestedAt.getTime() === firstAt);
  const highest = inbox.map((row) => Number(row.uid)).sort((a, b) => b - a).slice(0, newestFirstCount + 1);
  expect(firstBatch.every((row) => row.folderKey === 'INBOX')).toBe(true);
  expect(firstBatch.map((row) => Number(row.uid)).sort((a, b) => b - a)).toEqual(highest);
  // Later batches hold older mail, oldest first.
  const later = inbox.filter((row) => row.ingestedAt.getTime() !== firstAt);
  expect(Math.max(...later.map((row) => Number(row.uid)))).toBeLessThan(Math.min(...highest));

  // The live event the mail list refreshes on came with that first batch.
  expect(events.length).toBeGreaterThan(1);
  expect(events[0]).toMatchObject({ reason: 'new' });
  expect(events[0]!.threadIds.length).toBeGreaterThan(0);

  const cursor = await db().mailFolder.findFirstOrThrow({ where: { mailboxId: mailbox.id, key: 'INBOX' } });
  expect(Number(cursor.syncedUid)).toBe(Math.max(...inbox.map((row) => Number(row.uid))));
  expect(Number(cursor.oldestUid)).toBe(Math.min(...inbox.map((row) => Number(row.uid))));
}, 120_000);

it('finds a message by a word of its body once the sync has ended', async () => {
  const member = await createMember();
  const mailbox = await createImapMailbox(member, server, user, { address: `search-${user.user}` });
  const session = new MailboxSession(mailbox.id, { initialDays: 30, initialMaxPerFolder: 1_000_000 });
  const result = await session.run({ delta: true }, new AbortController().signal);
  await session.close();
  expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok' });

  for (const index of [0, 97, inboxCount - 1]) {
    const found = await call('GET', `/api/v1/messages?mailboxId=${mailbox.id}&q=zq${index}x`, { cookie: member.cookie });
    expect(found.status).toBe(200);
    expect(found.body.messages.map((message: { subject: string }) => message.subject)).toEqual([`Report ${index}`]);
  }
  const none = await call('GET', `/api/v1/messages?mailboxId=${mailbox.id}&q=zq${inboxCount + 5}x`, { cookie: member.cookie });
  expect(none.body.messages).toEqual([]);
}, 120_000);

// Last in the file: it appends to the account the tests above read.
it('a run stopped right after the newest batch keeps its boundary: mail that came meanwhile is new mail', async () => {
  const member = await createMember();
  const created = await createImapMailbox(member, server, user, { address: `stopped-${user.user}` });
  const mailbox = await db().mailbox.findUniqueOrThrow({ where: { id: created.id }, include: { credential: { select: { id: true, dataEnc: true } } } });
  const mirrorMailbox = { id: mailbox.id, memberId: mailbox.memberId, address: mailbox.address, syncMode: 'full' as const };
  const { adapter } = await openAdapter({ ...mailbox, syncMode: 'full' });
  const folders = await reconcileFolders(mirrorMailbox, await adapter.listFolders());
  const controller = new AbortController();
  const sink = createMirrorSink(mirrorMailbox);
  // The run is stopped as its first batch is handed over: that batch is written, nothing after it.
  const stopping: MirrorSink = { ...sink, commit: (batch) => (controller.abort(), sink.commit(batch)) };
  const outcome = await adapter.syncDelta({
    mailboxId: mailbox.id,
    address: mailbox.address,
    syncMode: 'full',
    folders,
    sink: stopping,
    signal: controller.signal,
    initialSince: new Date(Date.now() - 30 * 24 * 3600_000),
    initialMaxPerFolder: 1_000_000,
  });
  await adapter.close();
  expect(outcome.initialComplete).toBe(false);
  const stopped = await db().mailFolder.findFirstOrThrow({ where: { mailboxId: mailbox.id, key: 'INBOX' } });
  expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id } })).toBe(newestFirstCount + 1);
  expect(stopped.syncedUid).toBeNull();
  expect(Number(stopped.uidNext)).toBe(inboxCount + 1);

  const raw = await buildRawMessage({ from: 'late@example.test', to: user.user, subject: 'Arrived meanwhile', messageId: '<late@newest.test>', text: 'New.' });
  await appendMessages({ server, ...user }, [{ raw }]);
  const session = new MailboxSession(mailbox.id, { initialDays: 30, initialMaxPerFolder: 1_000_000 });
  const result = await session.run({ delta: true }, new AbortController().signal);
  await session.close();
  expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok' });

  const rows = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id, folderKey: 'INBOX' }, select: { id: true, subject: true, ingestedVia: true } });
  expect(rows).toHaveLength(inboxCount + 1);
  const late = rows.find((row) => row.subject === 'Arrived meanwhile');
  expect(late?.ingestedVia).toBe('delta');
  expect(rows.filter((row) => row.ingestedVia === 'initial')).toHaveLength(inboxCount);
  // New mail, and only new mail, goes to the workflow triggers.
  expect((await db().mailDispatchQueue.findMany({ where: { mailboxId: mailbox.id } })).map((entry) => entry.messageId)).toEqual([late!.id]);
}, 120_000);
