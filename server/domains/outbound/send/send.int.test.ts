/**
 * The send pipeline against real servers: the local SMTP peer (server/testing/mail-servers/smtp.ts),
 * Dovecot for the Sent copy, and a second smtp-server instance playing a peer that refuses recipients
 * or goes silent after the data. Each outcome leaves the item, the journal and the job queue as the
 * pipeline promises: done, failed, retried, unknown (never resent), held (mailbox away, guard), due later.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../core/db';
import { releaseMailboxHeldSends } from '../../../mail/send/release-held';
import { channel } from '../../../core/realtime/disconnect';
import { blobStore } from '../../../core/storage/blob-store';
import { createOutbound, type OutboundInput } from '../create';
import { evaluateSendGuard } from '../../send-guard/evaluate';
import { readGuard } from '../../send-guard/reading';
import { createMember, type TestMember } from '../../../testing/factories';
import { createImapMailbox } from '../../../testing/imap-mailbox';
import { createMessage } from '../../../testing/mail-factories';
import { openTestImap } from '../../../testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '../../../testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '../../../testing/mail-servers/smtp';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { runSend, sendPolicy } from './pipeline';
import { sweepSends } from './sweeper';

// The pipeline's own rules, not the guard's (send-guard's tests): the guard lets everything go, here in both claims.
vi.mock('../../send-guard/evaluate', () => ({ evaluateSendGuard: vi.fn(async () => ({ holdId: null })) }));
vi.mock('../../send-guard/reading', () => ({ readGuard: vi.fn(async () => ({ joinableHoldId: null, trip: null })) }));

const databaseUrl = await useTestDatabase();

const user = { user: `sender-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
let dovecot: DovecotServer;
let smtp: TestSmtpServer;
/** A peer that refuses `refused@` (550), defers `later@` (451) and never answers the data of a `silent` subject. */
let picky: SMTPServer;
let pickyPort = 0;
let pickyAccepted = 0;
let member: TestMember;
let mailbox: { id: string; address: string };
const runner = { runnerId: 'test-runner', allowPrivate: true, timeouts: { connectMs: 5_000, greetingMs: 5_000, socketMs: 3_000 } };

beforeAll(async () => {
  dovecot = await startDovecot({ users: [user] });
  smtp = await startSmtpServer({ users: [user] });
  picky = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused@')) return callback(Object.assign(new Error('5.1.1 No such user here'), { responseCode: 550 }));
      if (address.address.startsWith('later@')) return callback(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (Buffer.concat(chunks).toString('utf8').includes('Subject: silent')) return; // never answers
        pickyAccepted += 1;
        callback(null, 'ok');
      });
    },
  });
  picky.on('error', () => {});
  pickyPort = await new Promise<number>((resolve) => picky.listen(0, '127.0.0.1', () => resolve((picky.server.address() as { port: number }).port)));
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => picky?.close(() => resolve()));
  await smtp?.stop();
  await dovecot?.stop();
});

beforeEach(async () => {
  member = await createMember();
  const row = await createImapMailbox(member, dovecot, user);
  const settings = { ...(row.settings as object), smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false };
  mailbox = await db().mailbox.update({ where: { id: row.id }, data: { settings } });
  await db().mailFolder.create({ data: { mailboxId: mailbox.id, key: 'Sent', role: 'sent', name: 'Sent' } });
});

async function usePicky(): Promise<void> {
  const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
  await db().mailbox.update({ where: { id: mailbox.id }, data: { settings: { ...(row.settings as object), smtpPort: pickyPort } } });
}

async function makeItem(overrides: Partial<OutboundInput> = {}) {
  const { item } = await db().$transaction((tx) =>
    createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'webmail', review: false, to: ['ann@example.test'], subject: 'Hello', bodyText: 'Hi Ann', ...overrides }, tx),
  );
  return item;
}

const journal = (outboundId: string) => db().sendingJournalEntry.findMany({ where: { outboundId }, orderBy: { createdAt: 'asc' } });
const item = (id: string) => db().outboundMessage.findUniqueOrThrow({ where: { id } });
const sendJobs = (id: string) =>
  db().$queryRaw<{ run_at: Date; locked_at: Date | null }[]>`SELECT run_at, locked_at FROM graphile_worker.jobs WHERE key = ${`mail-send:${id}`}`;

function delivered(messageIdHeader: string) {
  return smtp.messages.filter((message) => message.raw.toString('utf8').includes(`Message-ID: ${messageIdHeader}`));
}

describe('a send that goes out', () => {
  it('delivers once with its headers and attachments, Bcc only in the envelope, journals the attempt and saves the Sent copy', async () => {
    const uploadId = randomUUID();
    await blobStore().put(`upload/${uploadId}`, Buffer.from('uploaded bytes'));
    await db().uploadedAttachment.create({ data: { id: uploadId, memberId: member.id, filename: 'upload.txt', mime: 'text/plain', size: 14, blobKey: `upload/${uploadId}`, expiresAt: new Date(Date.now() + 3_600_000) } });
    await blobStore().put('outbound/test-blob', Buffer.from('blob bytes'));
    const created = await makeItem({
      to: ['ann@example.test'],
      cc: ['carl@example.test'],
      bcc: ['hidden@example.test'],
      bodyHtml: '<p>Hi Ann</p>',
      attachments: [
        { source: 'upload', uploadId },
        { source: 'blob', blobKey: 'outbound/test-blob', filename: 'blob.bin', mime: 'application/octet-stream', size: 10 },
      ],
    });
    await db().outboundMessage.update({ where: { id: created.id }, data: { inReplyTo: '<orig@example.test>', references: ['<root@example.test>', '<orig@example.test>'] } });

    expect(await runSend(created.id, runner)).toBe('done');

    const [message] = delivered(created.messageIdHeader);
    expect(delivered(created.messageIdHeader)).toHaveLength(1);
    expect(message.mailFrom).toBe(mailbox.address);
    expect(message.rcptTo.sort()).toEqual(['ann@example.test', 'carl@example.test', 'hidden@example.test']);
    const raw = message.raw.toString('utf8');
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(head).not.toMatch(/^bcc:/im);
    expect(head).toMatch(new RegExp(`^From: ${member.name} <${mailbox.address}>`, 'm'));
    expect(head).toMatch(/^In-Reply-To: <orig@example\.test>/m);
    expect(head).toMatch(/^References: <root@example\.test> <orig@example\.test>/m);
    expect(raw).toContain('filename=upload.txt');
    expect(raw).toContain(Buffer.from('uploaded bytes').toString('base64'));
    expect(raw).toContain('filename=blob.bin');

    const row = await item(created.id);
    expect(row).toMatchObject({ sendStatus: 'done', sendAttempts: 1, sendRunnerId: null, sendErrorKind: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    const entries = await journal(created.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ event: 'attempt', attempt: 1, result: 'done', runnerId: 'test-runner', mailboxId: mailbox.id, memberId: member.id });
    expect(entries[0].startedAt).toBeInstanceOf(Date);
    expect(entries[0].finishedAt).toBeInstanceOf(Date);

    const imap = await openTestImap({ server: dovecot, ...user });
    try {
      const lock = await imap.getMailboxLock('Sent');
      try {
        const uids = (await imap.search({ header: { 'message-id': created.messageIdHeader } }, { uid: true })) || [];
        expect(uids).toHaveLength(1);
        const copy = await imap.fetchOne(String(uids[0]), { source: true, flags: true }, { uid: true });
        expect(copy && [...(copy.flags ?? [])]).toContain('\\Seen');
        expect(copy && copy.source?.toString('utf8')).toMatch(/^Bcc: hidden@example\.test/m);
      } finally {
        lock.release();
      }
    } finally {
      await imap.logout();
    }

    // Run again (a duplicate job): nothing is sent twice.
    expect(await runSend(created.id, runner)).toBe('skipped');
    expect(delivered(created.messageIdHeader)).toHaveLength(1);
  });

  it('sent mail carries the member\'s display name in From (the SMTP peer receives it), the address alone in the envelope', async () => {
    await db().member.update({ where: { id: member.id }, data: { name: 'Zoé Martin' } });
    const created = await makeItem({ subject: 'From a person' });
    expect(await runSend(created.id, runner)).toBe('done');
    const [message] = delivered(created.messageIdHeader);
    expect(message.mailFrom).toBe(mailbox.address);
    const raw = message.raw.toString('utf8');
    const fromLine = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ').split('\r\n').find((line) => line.startsWith('From: '));
    expect(fromLine).toBe(`From: =?UTF-8?Q?Zo=C3=A9_Martin?= <${mailbox.address}>`);
  });

  it('forwards an attachment of a mirrored message of the member, and refuses one of another member', async () => {
    const original = await createMessage(mailbox);
    await blobStore().put(`att/${original.id}/2`, Buffer.from('mirrored bytes'));
    await db().mailAttachment.create({ data: { messageId: original.id, position: 2, filename: 'mirrored.pdf', mime: 'application/pdf', size: 14, disposition: 'attachment', blobKey: `att/${original.id}/2` } });
    const forward = await makeItem({ attachments: [{ source: 'message', messageId: original.id, position: 2 }] });
    expect(await runSend(forward.id, runner)).toBe('done');
    const raw = delivered(forward.messageIdHeader)[0].raw.toString('utf8');
    expect(raw).toContain('filename=mirrored.pdf');
    expect(raw).toContain(Buffer.from('mirrored bytes').toString('base64'));

    const stranger = await createMember();
    const theirs = await createMessage(await createImapMailbox(stranger, dovecot, user, { address: `other-${randomUUID().slice(0, 6)}@example.test` }));
    await db().mailAttachment.create({ data: { messageId: theirs.id, position: 1, filename: 'theirs.pdf', mime: 'application/pdf', size: 14, disposition: 'attachment', blobKey: `att/${original.id}/2` } });
    const stolen = await makeItem({ attachments: [{ source: 'message', messageId: theirs.id, position: 1 }] });
    expect(await runSend(stolen.id, runner)).toBe('failed');
    expect(await item(stolen.id)).toMatchObject({ sendErrorKind: 'attachment_missing' });
    expect(delivered(stolen.messageIdHeader)).toHaveLength(0);
  });

  it('sends even when the Sent copy cannot be saved, with a warning', async () => {
    await db().mailFolder.deleteMany({ where: { mailboxId: mailbox.id, role: 'sent' } });
    const created = await makeItem();
    expect(await runSend(created.id, runner)).toBe('done');
    expect(delivered(created.messageIdHeader)).toHaveLength(1);
    expect((await item(created.id)).sendErrorMessage).toMatch(/Sent folder/);
    expect((await journal(created.id))[0]).toMatchObject({ result: 'done', errorMessage: expect.stringMatching(/Sent folder/) });
  });
});

describe('a send that fails', () => {
  it('retries a refused login later, journals the failed attempt, and fails after the fifth attempt', async () => {
    const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { settings: { ...(row.settings as object), username: 'nobody@example.test' } } });
    const created = await makeItem();
    const before = Date.now();
    expect(await runSend(created.id, runner)).toBe('retry');
    const first = await item(created.id);
    expect(first).toMatchObject({ sendStatus: 'pending', sendAttempts: 1, sendErrorKind: 'auth' });
    expect(first.sendErrorMessage).not.toContain(user.password);
    const wait = first.nextAttemptAt!.getTime() - before;
    expect(wait).toBeGreaterThanOrEqual(sendPolicy.baseDelayMs * 0.8 - 1_000);
    expect(wait).toBeLessThanOrEqual(sendPolicy.baseDelayMs * 1.2 + 60_000);
    const [job] = await sendJobs(created.id);
    expect(job.run_at.getTime()).toBe(first.nextAttemptAt!.getTime());
    expect(await journal(created.id)).toEqual([expect.objectContaining({ event: 'attempt', attempt: 1, result: 'failed', errorKind: 'auth' })]);

    // Not due yet: the job is put back, nothing is tried.
    expect(await runSend(created.id, runner)).toBe('deferred');
    expect((await item(created.id)).sendAttempts).toBe(1);

    await db().outboundMessage.update({ where: { id: created.id }, data: { sendAttempts: sendPolicy.maxAttempts - 1, nextAttemptAt: new Date(Date.now() - 1000) } });
    expect(await runSend(created.id, runner)).toBe('failed');
    expect(await item(created.id)).toMatchObject({ sendStatus: 'failed', sendAttempts: sendPolicy.maxAttempts, sendErrorKind: 'auth' });
    expect(delivered(created.messageIdHeader)).toHaveLength(0);
  });

  it('retries when the server cannot be reached', async () => {
    const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { settings: { ...(row.settings as object), smtpPort: 1 } } });
    const created = await makeItem();
    expect(await runSend(created.id, runner)).toBe('retry');
    expect(await item(created.id)).toMatchObject({ sendStatus: 'pending', sendErrorKind: 'unreachable' });
  });

  it('fails for good when every recipient is refused, and defers a temporary refusal', async () => {
    await usePicky();
    const refused = await makeItem({ to: ['refused@example.test'] });
    expect(await runSend(refused.id, runner)).toBe('failed');
    expect(await item(refused.id)).toMatchObject({ sendStatus: 'failed', sendErrorKind: 'rejected', sendErrorMessage: expect.stringContaining('No such user') });
    expect(await journal(refused.id)).toEqual([expect.objectContaining({ result: 'failed', errorKind: 'rejected' })]);

    const later = await makeItem({ to: ['later@example.test'] });
    expect(await runSend(later.id, runner)).toBe('retry');
    expect(await item(later.id)).toMatchObject({ sendStatus: 'pending', sendErrorKind: 'deferred' });
  });

  it('fails an item whose attachment no longer exists, before anything leaves', async () => {
    const created = await makeItem({ attachments: [{ source: 'upload', uploadId: randomUUID() }] });
    expect(await runSend(created.id, runner)).toBe('failed');
    expect(await item(created.id)).toMatchObject({ sendStatus: 'failed', sendErrorKind: 'attachment_missing' });
    expect(delivered(created.messageIdHeader)).toHaveLength(0);
  });

  it('is unknown when the server goes silent after the data, and is never sent again', async () => {
    await usePicky();
    const accepted = pickyAccepted;
    const created = await makeItem({ subject: 'silent' });
    expect(await runSend(created.id, runner)).toBe('unknown');
    expect(await item(created.id)).toMatchObject({ sendStatus: 'unknown', sendErrorKind: 'uncertain', sendRunnerId: null });
    expect(await journal(created.id)).toEqual([expect.objectContaining({ result: 'unknown', errorKind: 'uncertain' })]);
    expect(await runSend(created.id, runner)).toBe('skipped');
    expect(await sweepSends()).toMatchObject({ requeued: 0 });
    expect(pickyAccepted).toBe(accepted);
  });
});

describe('a send that waits', () => {
  it('is held while its mailbox is disconnected and goes out once it is connected again', async () => {
    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
    const created = await makeItem();
    expect(await runSend(created.id, runner)).toBe('held');
    expect(await item(created.id)).toMatchObject({ sendStatus: 'held', sendErrorKind: 'mailbox_not_active', sendAttempts: 0 });
    expect(await journal(created.id)).toEqual([expect.objectContaining({ event: 'held', reason: 'mailbox_not_active' })]);
    expect(delivered(created.messageIdHeader)).toHaveLength(0);

    await db().$transaction(async (tx) => {
      await tx.mailbox.update({ where: { id: mailbox.id }, data: { status: 'active' } });
      expect(await releaseMailboxHeldSends(mailbox.id, tx)).toBe(1);
    });
    expect(await item(created.id)).toMatchObject({ sendStatus: 'pending', sendErrorKind: null });
    expect(await sendJobs(created.id)).toHaveLength(1);
    expect(await runSend(created.id, runner)).toBe('done');
    expect(delivered(created.messageIdHeader)).toHaveLength(1);
    expect((await journal(created.id)).map((entry) => `${entry.event}:${entry.result ?? entry.reason}`)).toEqual(['held:mailbox_not_active', 'released:mailbox_active', 'attempt:done']);
  });

  it('goes out when the member reconnects the mailbox through the mailboxes route', async () => {
    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
    const created = await makeItem();
    expect(await runSend(created.id, runner)).toBe('held');
    const reconnected = await call('POST', '/api/v1/mailboxes/imap', {
      cookie: member.cookie,
      body: {
        address: mailbox.address,
        username: user.user,
        password: user.password,
        imapHost: '127.0.0.1',
        imapPort: dovecot.plainPort,
        imapSecure: false,
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpSecure: false,
        allowInvalidCertificate: true,
      },
    });
    expect(reconnected.status).toBe(201);
    expect(reconnected.body).toMatchObject({ created: false });
    expect(await item(created.id)).toMatchObject({ sendStatus: 'pending' });
    expect(await sendJobs(created.id)).toHaveLength(1);
    expect(await runSend(created.id, runner)).toBe('done');
    expect(delivered(created.messageIdHeader)).toHaveLength(1);
  });

  it('is held when the guard holds it', async () => {
    const hold = await db().sendHold.create({ data: { memberId: member.id, mailboxId: mailbox.id, reason: 'mailbox_hourly_cap' } });
    // The quick claim sees the hold and leaves the item to the full claim, whose guard holds it.
    vi.mocked(readGuard).mockResolvedValueOnce({ joinableHoldId: hold.id, trip: null });
    vi.mocked(evaluateSendGuard).mockResolvedValueOnce({ holdId: hold.id });
    const created = await makeItem();
    expect(await runSend(created.id, runner)).toBe('held');
    expect(await item(created.id)).toMatchObject({ sendStatus: 'held', holdId: hold.id, sendAttempts: 0 });
    expect(await journal(created.id)).toEqual([expect.objectContaining({ event: 'held', reason: 'guard' })]);
    // A mailbox reconnect does not release a guard's hold.
    expect(await db().$transaction((tx) => releaseMailboxHeldSends(mailbox.id, tx))).toBe(0);
    expect(delivered(created.messageIdHeader)).toHaveLength(0);
  });

  it('waits for the undo window and for the review (a draft goes out only once sent from the review)', async () => {
    const notBefore = new Date(Date.now() + 60_000);
    const undo = await makeItem({ notBefore });
    expect(await runSend(undo.id, runner)).toBe('deferred');
    expect((await sendJobs(undo.id))[0].run_at.getTime()).toBe(notBefore.getTime());
    expect(await item(undo.id)).toMatchObject({ sendStatus: 'pending', sendAttempts: 0 });

    const draft = await makeItem({ mode: 'draft' });
    expect(await runSend(draft.id, runner)).toBe('skipped');
    expect(await item(draft.id)).toMatchObject({ sendStatus: 'pending', sendAttempts: 0 });

    const reviewed = await makeItem({ review: true });
    expect(await runSend(reviewed.id, runner)).toBe('skipped');
    expect(await item(reviewed.id)).toMatchObject({ sendStatus: 'pending', sendAttempts: 0 });
    expect(await journal(reviewed.id)).toEqual([]);
  });
});

describe('live events', () => {
  it('announces every send-state change as outbound.changed {outboundId, mailboxId, sendStatus}', async () => {
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    const seen: { outboundId: string; mailboxId: string; sendStatus: string }[] = [];
    listener.on('notification', (message) => {
      const packet = (JSON.parse(message.payload ?? '{}') as { data?: { packet?: { data?: [string, { outboundId: string; mailboxId: string; sendStatus: string }] } } }).data?.packet?.data;
      // The pipeline's announcements (a new item's own, from createOutbound, carries its review status).
      if (packet?.[0] === 'outbound.changed' && !('reviewStatus' in packet[1])) seen.push(packet[1]);
    });
    await listener.query(`LISTEN "${channel}"`);
    try {
      const created = await makeItem();
      expect(await runSend(created.id, runner)).toBe('done');
      await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
      const held = await makeItem();
      expect(await runSend(held.id, runner)).toBe('held');
      // Notifications arrive after their commit: wait for them (no time bound asserted).
      for (let tries = 0; tries < 200 && seen.length < 3; tries += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(seen).toEqual([
        { outboundId: created.id, mailboxId: mailbox.id, sendStatus: 'running' },
        { outboundId: created.id, mailboxId: mailbox.id, sendStatus: 'done' },
        { outboundId: held.id, mailboxId: mailbox.id, sendStatus: 'held' },
      ]);
    } finally {
      await listener.end();
    }
  });
});

describe('the sweeper', () => {
  it('makes a dead runner\'s send unknown, leaves a live runner\'s alone, and gives a lost job back', async () => {
    await db().runnerInstance.create({ data: { id: 'live-runner', hostname: 'h', pid: 1 } });
    const started = new Date(Date.now() - 60_000);
    const dead = await makeItem();
    const live = await makeItem();
    for (const [row, runnerId] of [
      [dead, 'dead-runner'],
      [live, 'live-runner'],
    ] as const) {
      await db().outboundMessage.update({ where: { id: row.id }, data: { sendStatus: 'running', sendAttempts: 1, sendRunnerId: runnerId, sendStartedAt: started } });
      await db().sendingJournalEntry.create({ data: { memberId: member.id, outboundId: row.id, mailboxId: mailbox.id, event: 'attempt', attempt: 1, result: 'running', runnerId, startedAt: started } });
    }
    const lost = await makeItem();
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ${`mail-send:${lost.id}`}`;
    await db().$executeRaw`UPDATE outbound_messages SET updated_at = now() - interval '1 minute' WHERE id = ${lost.id}::uuid`;

    // Several runners sweeping at once: each item is given up once.
    const sweeps = await Promise.all([sweepSends(), sweepSends(), sweepSends()]);
    expect(sweeps.reduce((sum, swept) => sum + swept.unknown, 0)).toBe(1);
    expect(await item(dead.id)).toMatchObject({ sendStatus: 'unknown', sendErrorKind: 'uncertain' });
    expect(await journal(dead.id)).toEqual([expect.objectContaining({ result: 'unknown', errorKind: 'uncertain' })]);
    expect(await item(live.id)).toMatchObject({ sendStatus: 'running', sendRunnerId: 'live-runner' });
    expect(await sendJobs(lost.id)).toHaveLength(1);
    expect(await db().sendingJournalEntry.count({ where: { outboundId: dead.id } })).toBe(1);
    // An unknown send is never claimed again.
    expect(await runSend(dead.id, runner)).toBe('skipped');

    // A live runner's send older than 10 minutes is given up too.
    await db().outboundMessage.update({ where: { id: live.id }, data: { sendStartedAt: new Date(Date.now() - 11 * 60_000) } });
    await sweepSends();
    expect(await item(live.id)).toMatchObject({ sendStatus: 'unknown' });
  });
});
