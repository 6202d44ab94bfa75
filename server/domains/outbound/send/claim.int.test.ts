/**
 * The send pipeline's two claims (./claim.ts): the quick claim on a connection of the pool takes the item that goes
 * out now, under the guard's own locks and reading, and leaves every other item to the full claim in Prisma.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, pool } from '../../../core/db';
import { batchInPrisma } from '../../../core/db/statement-batch';
import { createMember, type TestMember } from '../../../testing/factories';
import { createImapMailbox } from '../../../testing/imap-mailbox';
import { startSmtpServer, type TestSmtpServer } from '../../../testing/mail-servers/smtp';
import { useTestDatabase } from '../../../testing/test-database';
import { createWorkflow } from '../../../testing/workflow-factories';
import { lockScopes } from '../../send-guard/repo';
import { createOutbound } from '../create';
import { runSend } from './pipeline';
import { outboundFromRow, outboundRowStatement } from './repo';

process.env.SEND_CAP_MAILBOX_PER_HOUR = '10';
await useTestDatabase();

const user = { user: `claims-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
const runner = { runnerId: 'claim-test-runner', allowPrivate: true, skipSentCopy: true, timeouts: { connectMs: 5_000, greetingMs: 5_000, socketMs: 3_000 } };
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer({ users: [user] });
});

afterAll(async () => {
  await smtp?.stop();
});

async function sendingMailbox(member: TestMember) {
  const row = await createImapMailbox(member, { host: '127.0.0.1', plainPort: 1, tlsPort: 1 }, user, { address: `box-${randomUUID().slice(0, 8)}@example.test` });
  return db().mailbox.update({ where: { id: row.id }, data: { settings: { ...(row.settings as object), smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false } } });
}

async function makeItem(member: TestMember, mailboxId: string, overrides: { origin?: 'webmail' | 'workflow' } = {}) {
  const { item } = await db().$transaction((tx) =>
    createOutbound({ memberId: member.id, mailboxId, mode: 'send', origin: overrides.origin ?? 'webmail', review: false, to: ['ann@example.test'], subject: 'Hello', bodyText: 'Hi Ann' }, tx),
  );
  return item;
}

/** A done send of the mailbox, an hour's count of the guard. */
async function alreadySent(member: TestMember, mailboxId: string, count: number) {
  for (let index = 0; index < count; index += 1) {
    const item = await makeItem(member, mailboxId);
    await db().outboundMessage.update({ where: { id: item.id }, data: { sendStatus: 'done', sentAt: new Date() } });
  }
}

async function advisoryLockWaiters(): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;
  return row?.n ?? 0;
}

describe('the quick claim', () => {
  it('reads the item as Prisma’s client does, every column included, on a connection and through Prisma’s raw query', async () => {
    const member = await createMember();
    const mailbox = await sendingMailbox(member);
    const { workflow } = await createWorkflow(member, { name: 'Columns' });
    const item = await makeItem(member, mailbox.id);
    // Every kind of column with a value: times, lists, JSON, uuids, numbers.
    await db().outboundMessage.update({
      where: { id: item.id },
      data: {
        ccAddrs: ['Carl <carl@example.test>'],
        bccAddrs: ['hidden@example.test'],
        references: ['<a@example.test>', '<b@example.test>'],
        inReplyTo: '<b@example.test>',
        attachments: [{ source: 'blob', blobKey: 'outbound/x', filename: 'x.txt', mime: 'text/plain', size: 3 }],
        notBefore: new Date('2026-12-01T10:00:00.123Z'),
        nextAttemptAt: new Date('2026-12-01T11:00:00.456Z'),
        sendAttempts: 2,
        workflowId: workflow.id,
        workflowName: 'Columns',
        nodeId: 'n1',
        nodeType: 'mail.send',
        dedupeKey: `key-${randomUUID()}`,
      },
    });
    const byPrisma = await db().outboundMessage.findUniqueOrThrow({ where: { id: item.id } });
    const { rows } = await pool().query(outboundRowStatement.text, [item.id]);
    expect(outboundFromRow(rows[0])).toEqual(byPrisma);
    // The full claim reads the same statement through Prisma's raw query: the same item.
    const [viaPrisma] = await db().$transaction((tx) => batchInPrisma(tx)([{ statement: outboundRowStatement, values: [item.id] }]));
    expect(outboundFromRow(viaPrisma[0])).toEqual(byPrisma);
  });

  it('claims an item that goes out now without a Prisma transaction, and it is delivered once', async () => {
    const member = await createMember();
    const mailbox = await sendingMailbox(member);
    const item = await makeItem(member, mailbox.id);
    const transactions = vi.spyOn(db(), '$transaction');
    try {
      expect(await runSend(item.id, runner)).toBe('done');
      expect(transactions).not.toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
    expect(await db().outboundMessage.findUniqueOrThrow({ where: { id: item.id } })).toMatchObject({ sendStatus: 'done', sendAttempts: 1, sendRunnerId: null });
    const journal = await db().sendingJournalEntry.findMany({ where: { outboundId: item.id } });
    expect(journal).toEqual([expect.objectContaining({ event: 'attempt', attempt: 1, result: 'done', runnerId: runner.runnerId })]);
    expect(smtp.messages.filter((message) => message.raw.toString('utf8').includes(item.messageIdHeader))).toHaveLength(1);
    // A second job of the same item finds it done: skipped, nothing sent again.
    expect(await runSend(item.id, runner)).toBe('skipped');
    expect(smtp.messages.filter((message) => message.raw.toString('utf8').includes(item.messageIdHeader))).toHaveLength(1);
  });

  it('waits for the guard’s lock of the mailbox taken by the full claim (the same key)', async () => {
    const member = await createMember();
    const mailbox = await sendingMailbox(member);
    const item = await makeItem(member, mailbox.id);
    let sending: Promise<string> | null = null;
    let waited = false;
    await db().$transaction(async (tx) => {
      await lockScopes(tx, mailbox.id, null);
      sending = runSend(item.id, runner);
      const until = Date.now() + 10_000;
      while (!waited && Date.now() < until) {
        waited = (await advisoryLockWaiters()) > 0;
        if (!waited) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Still pending while the lock is held: the claim has not passed it.
      expect((await tx.outboundMessage.findUniqueOrThrow({ where: { id: item.id } })).sendStatus).toBe('pending');
    });
    expect(waited).toBe(true);
    expect(await sending!).toBe('done');
  });

  it('many sends of one mailbox at once never pass the cap: the rest are held by one hold', async () => {
    const member = await createMember();
    const mailbox = await sendingMailbox(member);
    await alreadySent(member, mailbox.id, 7);
    const items = await Promise.all(Array.from({ length: 6 }, () => makeItem(member, mailbox.id)));
    const results = await Promise.all(items.map((item) => runSend(item.id, runner)));
    expect(results.filter((result) => result === 'done')).toHaveLength(3);
    expect(results.filter((result) => result === 'held')).toHaveLength(3);
    const holds = await db().sendHold.findMany({ where: { memberId: member.id } });
    expect(holds).toEqual([expect.objectContaining({ reason: 'mailbox_hourly_cap', mailboxId: mailbox.id, releasedAt: null })]);
    const held = await db().outboundMessage.findMany({ where: { id: { in: items.map((item) => item.id) }, sendStatus: 'held' } });
    expect(held.every((row) => row.holdId === holds[0].id)).toBe(true);
  });

  it('leaves an item the guard holds to the full claim, which holds it; the next one joins the hold', async () => {
    const member = await createMember();
    const mailbox = await sendingMailbox(member);
    await alreadySent(member, mailbox.id, 10);
    const first = await makeItem(member, mailbox.id, { origin: 'workflow' });
    expect(await runSend(first.id, runner)).toBe('held');
    const hold = await db().sendHold.findFirstOrThrow({ where: { memberId: member.id } });
    expect(hold.details).toMatchObject({ sends: 10, limit: 10 });
    const second = await makeItem(member, mailbox.id);
    expect(await runSend(second.id, runner)).toBe('held');
    expect(await db().outboundMessage.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ sendStatus: 'held', holdId: hold.id, sendAttempts: 0 });
    expect(await db().sendHold.count({ where: { memberId: member.id } })).toBe(1);
  });
});
