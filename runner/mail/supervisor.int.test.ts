/**
 * Runners sharing mailboxes: IDLE push, lease takeover after a runner dies, the fair share, work
 * handed to the holder, orderly stop, and mail jobs run by graphile-worker.
 */
import { randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { quickAddJob, runOnce } from 'graphile-worker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { jobKeys } from '../../server/core/jobs/catalogue';
import { createMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { appendMessages, buildRawMessage } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '../../server/testing/mail-servers/dovecot';
import { useTestDatabase } from '../../server/testing/test-database';
import { graphileLogger } from '../graphile-logger';
import { taskList } from '../tasks';
import { MailSupervisor, type SupervisorOptions } from './supervisor';

const connectionString = await useTestDatabase();

let server: DovecotServer;
const supervisors: MailSupervisor[] = [];
beforeAll(async () => {
  server = await startDovecot({ users: [] });
});
afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop()));
  await db().mailbox.updateMany({ data: { status: 'disconnected', leaseOwner: null, leaseUntil: null } });
  await db().runnerInstance.deleteMany();
});
afterAll(async () => {
  await server?.stop();
});

/** Quick timings: leases of 2 s, scans every 200 ms. */
const fast: SupervisorOptions = { renewMs: 500, ttlMs: 2_000, scanMs: 200, liveMs: 1_500, pollMs: 600_000, watchedPollMs: 600_000 };

function supervisor(options: SupervisorOptions = {}): MailSupervisor {
  const created = new MailSupervisor({ ...fast, ...options });
  supervisors.push(created);
  return created;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function mailboxFor(): Promise<{ user: MailUser; mailbox: Awaited<ReturnType<typeof createImapMailbox>> }> {
  const user = { user: `s-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
  await server.addUser(user);
  const member = await createMember();
  return { user, mailbox: await createImapMailbox(member, server, user) };
}

async function deliver(user: MailUser, subject: string) {
  await appendMessages({ server, ...user }, [{ raw: await buildRawMessage({ from: 'a@example.test', to: user.user, subject, text: subject }) }]);
}

/** A TCP proxy to 127.0.0.1:`port` that holds each new connection `delayMs` before connecting it. */
async function slowProxy(port: number, delayMs: number): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    sockets.add(client);
    client.pause();
    client.on('error', () => {});
    client.on('close', () => sockets.delete(client));
    setTimeout(() => {
      const upstream = connect(port, '127.0.0.1', () => {
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      client.on('close', () => upstream.destroy());
    }, delayMs);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

const subjects = async (mailboxId: string) => (await db().mailMessage.findMany({ where: { mailboxId }, orderBy: { uid: 'asc' } })).map((row) => row.subject);

describe('mail supervisor', () => {
  it('an IDLE watch brings a newly delivered message into the mirror without polling', async () => {
    const { user, mailbox } = await mailboxFor();
    await deliver(user, 'Before');
    const runner = supervisor();
    await runner.start();
    await waitFor('initial sync', async () => (await subjects(mailbox.id)).length === 1);
    // Let the watch settle into IDLE (it opens after the first run).
    await waitFor('watch', async () => (await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).lastDeltaAt !== null);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await deliver(user, 'Pushed');
    await waitFor('pushed message', async () => (await subjects(mailbox.id)).includes('Pushed'), 3_000);
    const pushed = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, subject: 'Pushed' } });
    expect(pushed.ingestedVia).toBe('delta');
  });

  it('a message delivered while the watch opens after the first sync is not left for the next poll', async () => {
    // Every new IMAP connection of this mailbox waits 1 s (a slow network or TLS handshake): the
    // delivery below lands after the first sync and before the IDLE watch's SELECT, which then counts
    // the message as already there and raises no event for it.
    const slow = await slowProxy(server.plainPort, 1_000);
    try {
      const user = { user: `s-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
      await server.addUser(user);
      const mailbox = await createImapMailbox(await createMember(), { host: server.host, plainPort: slow.port, tlsPort: slow.port }, user);
      const runner = supervisor();
      await runner.start();
      await waitFor('first sync', async () => (await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).lastDeltaAt !== null);
      await deliver(user, 'During the watch opening');
      // Polls are 10 minutes apart here: only a catch-up once the watch is open brings it.
      await waitFor('the message', async () => (await subjects(mailbox.id)).includes('During the watch opening'), 6_000);
    } finally {
      await slow.close();
    }
  });

  it('a dead runner\'s mailbox is taken over after its lease expires', async () => {
    const { user, mailbox } = await mailboxFor();
    const first = supervisor({ owner: 'runner-a' });
    await first.start();
    await waitFor('lease by a', async () => first.holds(mailbox.id));
    await first.abandon();
    const heldUntil = (await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).leaseUntil!;

    const second = supervisor({ owner: 'runner-b' });
    await second.start();
    await waitFor('takeover by b', async () => second.holds(mailbox.id), 10_000);
    const after = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(after.leaseOwner).toBe('runner-b');
    // Taken only once a's lease had expired.
    expect(Date.now()).toBeGreaterThanOrEqual(heldUntil.getTime());
    await deliver(user, 'After takeover');
    await second.dispatch(mailbox.id, { delta: true });
    await waitFor('sync by b', async () => (await subjects(mailbox.id)).includes('After takeover'));
  });

  it('spreads mailboxes over live runners and hands work to the holder', async () => {
    const boxes = await Promise.all([mailboxFor(), mailboxFor(), mailboxFor(), mailboxFor()]);
    const a = supervisor({ owner: 'share-a', watch: false });
    const b = supervisor({ owner: 'share-b', watch: false });
    await a.start();
    await b.start();
    await waitFor('fair share', async () => {
      const counts = await db().mailbox.groupBy({ by: ['leaseOwner'], where: { status: 'active' }, _count: true });
      const held = Object.fromEntries(counts.map((row) => [row.leaseOwner, row._count]));
      return held['share-a'] === 2 && held['share-b'] === 2;
    });
    // Work for a mailbox b holds, asked on a: handed over and done by b.
    const heldByB = boxes.find(({ mailbox }) => b.holds(mailbox.id))!;
    await deliver(heldByB.user, 'Handed over');
    expect(await a.dispatch(heldByB.mailbox.id, { delta: true })).toBe('handed-over');
    await waitFor('handed-over sync', async () => (await subjects(heldByB.mailbox.id)).includes('Handed over'));
  });

  /** Two runners (no IDLE watch) sharing two mailboxes one each; `held()` counts each one's leases. */
  async function twoRunnersSharing(prefix: string) {
    const ids = (await Promise.all([mailboxFor(), mailboxFor()])).map(({ mailbox }) => mailbox.id);
    const a = supervisor({ owner: `${prefix}-a`, watch: false });
    const b = supervisor({ owner: `${prefix}-b`, watch: false });
    await a.start();
    await b.start();
    const held = async () => {
      const rows = await db().mailbox.findMany({ where: { id: { in: ids } }, select: { leaseOwner: true } });
      return { a: rows.filter((row) => row.leaseOwner === a.owner).length, b: rows.filter((row) => row.leaseOwner === b.owner).length };
    };
    const even = async () => {
      const counts = await held();
      return counts.a === 1 && counts.b === 1;
    };
    await waitFor('fair share', even);
    return { a, b, held, even };
  }

  it('a runner whose mailboxes were taken over while it stalled sits out before taking any back, longer each time', async () => {
    const { a, held, even } = await twoRunnersSharing('stall');
    // a stalls past its lease (2 s): b takes its mailbox over.
    await a.stallForTests(3_500);
    await waitFor('take-over by b', async () => (await held()).b === 2);
    // Back, a finds the take-over and sits out for twice the lease: b keeps both, a takes none.
    const sitOut = await waitFor('a sits out', async () => a.sittingOutFor);
    expect(sitOut.ms).toBe(4_000);
    while (Date.now() < sitOut.until.getTime() - 300) {
      expect(await held()).toEqual({ a: 0, b: 2 });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Then the share evens out again.
    await waitFor('even again', even);

    // Taken over again within the hour: twice as long.
    await a.stallForTests(3_500);
    await waitFor('take-over by b again', async () => (await held()).b === 2);
    expect((await waitFor('a sits out again', async () => a.sittingOutFor)).ms).toBe(8_000);
  });

  it('a runner sitting out comes back at once when no other runner is left to sync', async () => {
    const { a, b, held } = await twoRunnersSharing('alone');
    await a.stallForTests(3_500);
    const sitOut = await waitFor('a sits out', async () => a.sittingOutFor);
    // b dies: its heartbeat ages out, its leases expire, and a takes both long before its sit-out would end.
    await b.abandon();
    await waitFor('a holds both', async () => (await held()).a === 2);
    expect(Date.now()).toBeLessThan(sitOut.until.getTime());
    expect(a.sittingOutFor).toBeNull();
  });

  it('an orderly stop gives the leases back and leaves the runner list', async () => {
    const { mailbox } = await mailboxFor();
    const runner = supervisor({ owner: 'stopping' });
    await runner.start();
    await waitFor('lease', async () => runner.holds(mailbox.id));
    await runner.stop();
    expect(await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).toMatchObject({ leaseOwner: null, leaseUntil: null });
    expect(await db().runnerInstance.count({ where: { id: 'stopping' } })).toBe(0);
  });

  it('a release stops the holder\'s work on a disconnected mailbox', async () => {
    const { mailbox } = await mailboxFor();
    const runner = supervisor({ owner: 'releasing' });
    await runner.start();
    await waitFor('lease', async () => runner.holds(mailbox.id));
    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
    await runner.dispatch(mailbox.id, { release: true });
    expect(runner.holds(mailbox.id)).toBe(false);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).leaseOwner).toBeNull();
  });
});

describe('mail jobs in graphile-worker (no supervisor in this process)', () => {
  it('mail.sync runs once under its own lease; mail.resync is silent and recorded', async () => {
    const { user, mailbox } = await mailboxFor();
    await deliver(user, 'By job');
    await quickAddJob({ connectionString, logger: graphileLogger }, 'mail.sync', { mailboxId: mailbox.id, reason: 'connect' }, { jobKey: jobKeys.sync(mailbox.id) });
    await runOnce({ connectionString, taskList, noHandleSignals: true, logger: graphileLogger });
    expect(await subjects(mailbox.id)).toEqual(['By job']);
    const after = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(after).toMatchObject({ leaseOwner: null, messageCount: 1 });
    expect(after.lastDeltaAt).not.toBeNull();

    await quickAddJob({ connectionString, logger: graphileLogger }, 'mail.resync', { mailboxId: mailbox.id, since: new Date(Date.now() - 3600_000).toISOString() });
    await runOnce({ connectionString, taskList, noHandleSignals: true, logger: graphileLogger });
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).syncState).toEqual({});
    const rows = await db().$queryRaw<{ count: bigint }[]>`SELECT count(*) FROM graphile_worker.jobs`;
    expect(Number(rows[0]!.count)).toBe(0);
  });
});
