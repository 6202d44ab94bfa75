/**
 * At most once under crashes: 100 sends to the local SMTP peer while real runner processes
 * (runner/main.ts) are SIGKILLed four times, two runners together for part of it. Afterwards every
 * item is `done` (delivered exactly once by the peer's log) or `unknown` (cut off by a kill: delivered
 * at most once), none was delivered twice, none is left pending, running or failed.
 *
 * No timed assertions: the waits are generous deadlines for progress, the checks are on the end state.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runnerProcesses } from '../testing/runner-processes';
import { db } from '../../server/core/db';
import { createOutbound } from '../../server/domains/outbound/create';
import { createMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { startDovecot, type DovecotServer } from '../../server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '../../server/testing/mail-servers/smtp';
import { useTestDatabase } from '../../server/testing/test-database';

const databaseUrl = await useTestDatabase();
const total = 100;
const user = { user: `crash-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };

let dovecot: DovecotServer;
let smtp: TestSmtpServer;
const runners = runnerProcesses({ DATABASE_URL: databaseUrl, MAIL_ALLOW_PRIVATE_HOSTS: '1' });

beforeAll(async () => {
  dovecot = await startDovecot({ users: [user] });
  smtp = await startSmtpServer({ users: [user] });
}, 60_000);

afterAll(async () => {
  runners.killAll();
  await smtp?.stop();
  await dovecot?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settled(mailboxId: string): Promise<number> {
  return db().outboundMessage.count({ where: { mailboxId, sendStatus: { in: ['done', 'unknown', 'failed'] } } });
}

/** Waits until `count` items have settled, or the deadline (progress only; the end state is asserted). */
async function until(mailboxId: string, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && (await settled(mailboxId)) < count) await sleep(100);
}

it('100 sends survive four SIGKILLs of their runners: each is delivered once (done) or cut off (unknown), never twice, none stuck', async () => {
  const member = await createMember();
  const row = await createImapMailbox(member, dovecot, user);
  const mailbox = await db().mailbox.update({
    where: { id: row.id },
    data: { settings: { ...(row.settings as object), smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false } },
  });
  const ids: string[] = [];
  for (let index = 0; index < total; index += 1) {
    const { item } = await db().$transaction((tx) =>
      createOutbound(
        { memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'workflow', review: false, to: [`r${index}@example.test`], subject: `Crash ${index}`, bodyText: `Message ${index} `.repeat(200) },
        tx,
      ),
    );
    ids.push(item.id);
  }

  let first = runners.start();
  await until(mailbox.id, 10, 60_000);
  const second = runners.start(); // two runners together for a while
  await until(mailbox.id, 25, 60_000);
  await runners.kill(first); // kill 1
  first = runners.start();
  await until(mailbox.id, 45, 60_000);
  await runners.kill(second); // kill 2
  await until(mailbox.id, 65, 60_000);
  await runners.kill(first); // kill 3: no runner left for a moment
  await sleep(300);
  first = runners.start();
  await until(mailbox.id, 80, 90_000);
  await runners.kill(first); // kill 4
  runners.start();
  await until(mailbox.id, total, 300_000);

  const items = await db().outboundMessage.findMany({ where: { mailboxId: mailbox.id } });
  const copies = new Map<string, number>();
  for (const message of smtp.messages) {
    const id = /^Message-ID: (<[^>]+>)/im.exec(message.raw.toString('utf8'))?.[1];
    if (id) copies.set(id, (copies.get(id) ?? 0) + 1);
  }
  const statuses = new Map<string, number>();
  for (const item of items) statuses.set(item.sendStatus, (statuses.get(item.sendStatus) ?? 0) + 1);
  const unknownDelivered = items.filter((item) => item.sendStatus === 'unknown' && copies.get(item.messageIdHeader) === 1).length;
  console.log(`send crash report: ${JSON.stringify(Object.fromEntries(statuses))}; unknown but delivered: ${unknownDelivered}; peer messages: ${smtp.messages.length}`);

  expect(items).toHaveLength(total);
  expect(items.filter((item) => !['done', 'unknown'].includes(item.sendStatus)).map((item) => `${item.id}:${item.sendStatus}:${item.sendErrorKind}`)).toEqual([]);
  expect([...copies.entries()].filter(([, count]) => count > 1)).toEqual([]);
  for (const item of items.filter((candidate) => candidate.sendStatus === 'done')) expect(copies.get(item.messageIdHeader)).toBe(1);
  // Every attempt journaled ends with the item's state; none is left running.
  expect(await db().sendingJournalEntry.count({ where: { outboundId: { in: ids }, result: 'running' } })).toBe(0);
  // How many end `unknown` depends on where the kills land (up to 20 sends in flight per runner); some go out.
  expect(statuses.get('done') ?? 0).toBeGreaterThan(0);
}, 900_000);
