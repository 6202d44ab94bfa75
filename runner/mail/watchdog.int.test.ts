/**
 * The mailbox watchdog's rules on rows (the frozen-connection case with a real Dovecot is in
 * health-freeze.int.test.ts): each bound marks an active mailbox stalled with its reason and one
 * `mailbox.stalled`, concurrent passes notify once, a healed mailbox is cleared with one
 * `mailbox.recovered`, and a mailbox that left `active` is cleared without a word.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { createMember, type TestMember } from '../../server/testing/factories';
import { createMailbox, createMessage } from '../../server/testing/mail-factories';
import { useTestDatabase } from '../../server/testing/test-database';
import { runMailWatchdog, type StallBounds } from './watchdog';

await useTestDatabase();

const minute = 60_000;
const bounds: StallBounds = { syncMs: 20 * minute, watchMs: 5 * minute, dispatchMs: 10 * minute };
const ago = (ms: number) => new Date(Date.now() - ms);

let member: TestMember;
beforeEach(async () => {
  await db().mailDispatchQueue.deleteMany();
  await db().notification.deleteMany();
  await db().mailbox.deleteMany();
  member = await createMember();
});

/** An active mailbox synced a minute ago with a fresh heartbeat: healthy. */
async function healthyMailbox() {
  const mailbox = await createMailbox(member);
  return db().mailbox.update({
    where: { id: mailbox.id },
    data: { lastSuccessfulSyncAt: ago(minute), initialSyncDoneAt: ago(60 * minute), watchMode: 'idle', watchAliveAt: ago(10_000) },
  });
}

const pass = () => runMailWatchdog(bounds, { rewatch: false });

async function notifications(kind: string) {
  return db().notification.findMany({ where: { memberId: member.id, kind }, select: { params: true, severity: true, link: true } });
}

describe('the mailbox watchdog', () => {
  it('leaves a healthy mailbox alone', async () => {
    await healthyMailbox();
    expect(await pass()).toEqual({ stalled: [], recovered: [] });
  });

  it('marks sync_overdue after no successful sync within the bound, with one warning notification linking to the settings', async () => {
    const mailbox = await healthyMailbox();
    await db().mailbox.update({ where: { id: mailbox.id }, data: { lastSuccessfulSyncAt: ago(21 * minute) } });
    expect((await pass()).stalled).toEqual([{ mailboxId: mailbox.id, reason: 'sync_overdue' }]);
    const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(row.stalledReason).toBe('sync_overdue');
    expect(row.stalledSince).not.toBeNull();
    expect(await notifications('mailbox.stalled')).toEqual([
      { params: { mailboxId: mailbox.id, address: mailbox.address, reason: 'sync_overdue' }, severity: 'warning', link: '/settings/mailboxes' },
    ]);
  });

  it('counts a mailbox that never synced from its connection', async () => {
    const mailbox = await createMailbox(member);
    expect((await pass()).stalled).toEqual([]);
    await db().mailbox.update({ where: { id: mailbox.id }, data: { connectedAt: ago(25 * minute) } });
    expect((await pass()).stalled).toEqual([{ mailboxId: mailbox.id, reason: 'sync_overdue' }]);
  });

  it('marks watch_silent when the watch heartbeat is older than its bound', async () => {
    const mailbox = await healthyMailbox();
    await db().mailbox.update({ where: { id: mailbox.id }, data: { watchAliveAt: ago(6 * minute) } });
    expect((await pass()).stalled).toEqual([{ mailboxId: mailbox.id, reason: 'watch_silent' }]);
  });

  it('marks dispatch_lag when mirrored mail waited longer than the bound to be journaled, and recovers once the queue drained', async () => {
    const mailbox = await healthyMailbox();
    const message = await createMessage(mailbox);
    await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: mailbox.id, enqueuedAt: ago(9 * minute) } });
    expect((await pass()).stalled).toEqual([]);
    await db().mailDispatchQueue.update({ where: { messageId: message.id }, data: { enqueuedAt: ago(11 * minute) } });
    expect((await pass()).stalled).toEqual([{ mailboxId: mailbox.id, reason: 'dispatch_lag' }]);
    await db().mailDispatchQueue.deleteMany({ where: { mailboxId: mailbox.id } });
    expect((await pass()).recovered).toEqual([mailbox.id]);
    expect(await notifications('mailbox.recovered')).toEqual([
      { params: { mailboxId: mailbox.id, address: mailbox.address }, severity: 'info', link: '/settings/mailboxes' },
    ]);
    expect(await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).toMatchObject({ stalledSince: null, stalledReason: null });
  });

  it('notifies once however many passes run at once or after (several runners)', async () => {
    const mailbox = await healthyMailbox();
    await db().mailbox.update({ where: { id: mailbox.id }, data: { watchAliveAt: ago(10 * minute) } });
    const outcomes = await Promise.all([pass(), pass(), pass(), pass()]);
    expect(outcomes.flatMap((outcome) => outcome.stalled)).toEqual([{ mailboxId: mailbox.id, reason: 'watch_silent' }]);
    await pass();
    expect(await notifications('mailbox.stalled')).toHaveLength(1);
    await db().mailbox.update({ where: { id: mailbox.id }, data: { watchAliveAt: new Date() } });
    const recoveries = await Promise.all([pass(), pass(), pass()]);
    expect(recoveries.flatMap((outcome) => outcome.recovered)).toEqual([mailbox.id]);
    expect(await notifications('mailbox.recovered')).toHaveLength(1);
  });

  it('never marks a mailbox that is not active, and clears a stalled one that left active without notifying', async () => {
    const failing = await createMailbox(member, { status: 'error' });
    await db().mailbox.update({ where: { id: failing.id }, data: { connectedAt: ago(60 * minute) } });
    expect((await pass()).stalled).toEqual([]);
    const mailbox = await healthyMailbox();
    await db().mailbox.update({ where: { id: mailbox.id }, data: { watchAliveAt: ago(10 * minute) } });
    await pass();
    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'error' } });
    expect((await pass()).recovered).toEqual([]);
    expect(await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).toMatchObject({ stalledSince: null });
    expect(await notifications('mailbox.recovered')).toEqual([]);
  });
});
