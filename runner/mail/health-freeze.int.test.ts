/**
 * A mail trigger must never stop silently (issue 20, "Mailbox health"). A real Dovecot connection is
 * FROZEN (a TCP proxy stops carrying bytes both ways and keeps every socket open, as a broken NAT or
 * firewall does; no flag inside the code): the IDLE watch's proof of life (a NOOP with a deadline)
 * goes unanswered, the watch ends, its heartbeat ages, and the watchdog marks the mailbox stalled
 * with exactly one `mailbox.stalled`, however often it runs. Thawed, the mailbox heals by itself
 * (the watchdog asked its holder to start again; the run retried), mail delivered meanwhile is
 * mirrored, and the watchdog raises exactly one `mailbox.recovered`. The health route shows each
 * state along the way. Bounds are shortened for the test (seconds instead of minutes).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../server/core/config';
import { db } from '../../server/core/db';
import { createMember, type TestMember } from '../../server/testing/factories';
import { startFreezableProxy } from '../../server/testing/freezable-proxy';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { appendMessage, buildRawMessage } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '../../server/testing/mail-servers/dovecot';
import { call } from '../../server/testing/rest-client';
import { useTestDatabase } from '../../server/testing/test-database';
import { MailSupervisor } from './supervisor';
import { runMailWatchdog, type StallBounds } from './watchdog';

await useTestDatabase();

const watchSeconds = 3;
let server: DovecotServer;
const supervisors: MailSupervisor[] = [];
beforeAll(async () => {
  // The health route's `watch.alive` reads the same bound as the watchdog below.
  process.env.MAIL_STALL_WATCH_SECONDS = String(watchSeconds);
  resetConfigForTests();
  server = await startDovecot({ users: [] });
});
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop()));
});
afterAll(async () => {
  delete process.env.MAIL_STALL_WATCH_SECONDS;
  resetConfigForTests();
  await server?.stop();
});

const hour = 3_600_000;
/** Only the watch heartbeat can stall the mailbox here: the other bounds are an hour. */
const bounds: StallBounds = { syncMs: hour, watchMs: watchSeconds * 1000, dispatchMs: hour };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function deliver(user: MailUser, subject: string): Promise<void> {
  await appendMessage({ server, ...user, folder: 'INBOX', raw: await buildRawMessage({ from: 'sender@example.test', to: user.user, subject, text: subject }) });
}

async function mirrored(mailboxId: string, subject: string): Promise<boolean> {
  return (await db().mailMessage.count({ where: { mailboxId, subject } })) > 0;
}

async function healthOf(member: TestMember, mailboxId: string) {
  const response = await call('GET', '/api/v1/mailboxes/health', { cookie: member.cookie });
  expect(response.status).toBe(200);
  return (response.body.mailboxes as Array<{ mailboxId: string; [key: string]: unknown }>).find((row) => row.mailboxId === mailboxId)!;
}

async function kinds(memberId: string, kind: string) {
  return db().notification.findMany({ where: { memberId, kind }, select: { params: true, severity: true } });
}

describe('mailbox health: a frozen Dovecot connection', () => {
  it('raises one mailbox.stalled while frozen, heals after the thaw with the mail delivered meanwhile, and raises one mailbox.recovered', { timeout: 300_000 }, async () => {
    const proxy = await startFreezableProxy({ host: server.host, port: server.plainPort });
    try {
      const user: MailUser = { user: `h-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
      await server.addUser(user);
      const member = await createMember();
      const mailbox = await createImapMailbox(member, { host: server.host, plainPort: proxy.port, tlsPort: proxy.port }, user);
      const runner = new MailSupervisor({
        renewMs: 500,
        ttlMs: 5_000,
        scanMs: 200,
        liveMs: 3_000,
        // Nothing but the watch and the failure retry brings mail: the polls are an hour away.
        pollMs: hour,
        watchedPollMs: hour,
        folderCheckMs: 0,
        heartbeatMs: 300,
        aliveCheckMs: 500,
        aliveTimeoutMs: 1_500,
        watchReopenMs: [0, 500],
        session: { imap: { greetingTimeout: 2_000, connectionTimeout: 2_000 } },
      });
      supervisors.push(runner);
      await runner.start();
      const worker = await waitFor('the first sync and an open watch', () => {
        const held = runner.worker(mailbox.id);
        return held && held.runs > 0 && held.watched ? held : null;
      }, 60_000);
      await worker.idle();

      // Healthy: IDLE watched, heartbeat fresh, nothing for the watchdog.
      await waitFor('a heartbeat of the IDLE watch', async () => (await healthOf(member, mailbox.id)).watch, 10_000);
      expect(await healthOf(member, mailbox.id)).toMatchObject({ state: 'healthy', watch: { mode: 'idle', alive: true }, stalled: null });
      expect((await runMailWatchdog(bounds)).stalled).toEqual([]);

      proxy.freeze();
      // The watch notices by itself (its NOOP goes unanswered), long before imapflow's 30-min socket timeout.
      await waitFor('the watch to notice its connection froze', () => !worker.watched, 30_000);
      await deliver(user, 'Delivered while frozen');
      const stalled = await waitFor(
        'the watchdog to find the mailbox stalled',
        async () => (await runMailWatchdog(bounds)).stalled.find((entry) => entry.mailboxId === mailbox.id),
        60_000,
      );
      expect(stalled.reason).toBe('watch_silent');
      // Several runners (or passes) after it: still one notification.
      await Promise.all([runMailWatchdog(bounds), runMailWatchdog(bounds), runMailWatchdog(bounds)]);
      expect(await kinds(member.id, 'mailbox.stalled')).toEqual([
        { params: { mailboxId: mailbox.id, address: mailbox.address, reason: 'watch_silent' }, severity: 'warning' },
      ]);
      const whileFrozen = await healthOf(member, mailbox.id);
      expect(whileFrozen).toMatchObject({ state: 'stalled', status: 'active', watch: { alive: false }, stalled: { reason: 'watch_silent' } });
      expect(await mirrored(mailbox.id, 'Delivered while frozen')).toBe(false);

      const connectionsBeforeThaw = proxy.connections;
      proxy.thaw();
      // The held mailbox heals by itself: a fresh connection syncs the mail delivered meanwhile.
      await waitFor('the mail delivered while frozen', () => mirrored(mailbox.id, 'Delivered while frozen'), 120_000);
      await waitFor('the watch open again', () => worker.watched, 60_000);
      expect(proxy.connections).toBeGreaterThan(connectionsBeforeThaw);
      const recovered = await waitFor('the watchdog to clear the stall', async () => (await runMailWatchdog(bounds)).recovered.includes(mailbox.id), 30_000);
      expect(recovered).toBe(true);
      await Promise.all([runMailWatchdog(bounds), runMailWatchdog(bounds)]);
      expect(await kinds(member.id, 'mailbox.recovered')).toEqual([{ params: { mailboxId: mailbox.id, address: mailbox.address }, severity: 'info' }]);
      expect(await kinds(member.id, 'mailbox.stalled')).toHaveLength(1);
      // The heartbeat's bound is seconds here: on a loaded machine a proof can come late, so wait for it.
      const healed = await waitFor('the health route to show the mailbox healthy', async () => {
        const row = await healthOf(member, mailbox.id);
        return row.state === 'healthy' && (row.watch as { alive: boolean }).alive ? row : null;
      }, 30_000);
      expect(healed).toMatchObject({ state: 'healthy', status: 'active', watch: { mode: 'idle', alive: true }, stalled: null });

      // And the watch carries new mail again.
      await deliver(user, 'After the thaw');
      await waitFor('the mail delivered after the thaw', () => mirrored(mailbox.id, 'After the thaw'), 60_000);
      expect(worker.wakeups.polls).toBe(0);
    } finally {
      proxy.thaw();
      await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop()));
      await proxy.close();
    }
  });
});
