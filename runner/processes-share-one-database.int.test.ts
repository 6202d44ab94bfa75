/**
 * Any number of web and runner processes share one database, and losing one of each loses nothing
 * (issue 25 §4): two web processes (API-only: server/http/main.ts with WEB_API_ONLY=1) and two runner
 * processes (runner/main.ts) on this file's database, which the test's PostgreSQL server holds outside
 * all of them. Webhooks (`Idempotency-Key` each) and sends (`clientToken` each) alternate between the
 * two webs while mail arrives in two IMAP mailboxes (Dovecot) that the two runners share by lease;
 * mid-load one web and one runner are SIGKILLed, and a request that fails on the dead web is sent
 * again to the other, as a reverse proxy would. Afterwards:
 *
 * - every webhook answered 202 has exactly one run, and it ended; the sink saw no effect twice (the
 *   only failure allowed is a call cut off by the kill: `step_effect_uncertain`, made at most once);
 * - every send answered 202 left once (`done`) or at most once (`unknown`, cut off), never twice;
 * - every message delivered to a mailbox is mirrored once; every mirror write was made by the runner
 *   holding that mailbox's live lease (never two runners syncing one mailbox), and the dead runner's
 *   mailboxes were taken over once its lease ran out, within one scan (leases of
 *   `leaseSeconds` here: MAIL_LEASE_SECONDS);
 * - a member's socket on the surviving web received every run's end, exactly once, although runners
 *   (other processes, one of them dead now) finished them.
 *
 * No timed assertions on throughput: waits are deadlines for progress; the budget of the whole test
 * is `budgetMs`. The report line says what happened (kill points, take-over delay, retries, statuses).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { db } from '../server/core/db';
import { findFreePort } from '../server/core/free-port';
import { webhookTokenHashOf } from '../server/engine/dispatch/webhook';
import { leaseTimingFor } from '../server/mail/lease';
import { createApiKeyFor, createMember, type TestMember } from '../server/testing/factories';
import { createImapMailbox } from '../server/testing/imap-mailbox';
import { appendMessage, buildRawMessage } from '../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '../server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '../server/testing/mail-servers/smtp';
import { useTestDatabase } from '../server/testing/test-database';
import { webProcesses, type WebProcess } from '../server/testing/web-processes';
import { createWorkflow } from '../server/testing/workflow-factories';
import { crashWorkflowGraph } from './engine/testing/crash-graph';
import { startEffectSink, type EffectSink } from './engine/testing/effect-sink';
import { runnerProcesses } from './testing/runner-processes';
import { installSyncObserver, leaseHistory, mirrorWritesOutsideLease, syncWrites, takeovers } from './testing/sync-observer';
import { waitFor } from './testing/wait-for';

const databaseUrl = await useTestDatabase();

/** The whole test's budget on a loaded 2-core machine (it usually takes well under half). */
const budgetMs = 240_000;
const leaseSeconds = 10;
const lease = leaseTimingFor(leaseSeconds);
/** Beyond the lease and one scan, what a loaded machine may add before the survivor's scan runs. */
const takeoverSlackMs = 5_000;
const webhookTotal = 120;
/** The kills come once this many webhooks were sent. */
const killAfterWebhooks = 45;
const sendTotal = 16;
const mailBefore = 3;
const mailDuring = 8;

const users: MailUser[] = [0, 1].map((index) => ({ user: `multi${index}-${randomUUID().slice(0, 6)}@example.test`, password: `pw-${randomUUID()}` }));
let dovecot: DovecotServer;
let smtp: TestSmtpServer;
let sink: EffectSink;

const sharedEnv = {
  MAIL_ALLOW_PRIVATE_HOSTS: '1',
  HTTP_NODE_ALLOW_HOSTS: '127.0.0.1',
  MAIL_LEASE_SECONDS: String(leaseSeconds),
  WEBHOOK_RATE_LIMIT: '0',
  SEND_UNDO_SECONDS: '0',
  DATABASE_POOL_SIZE: '6',
};
const runners = runnerProcesses(sharedEnv);
const webs = webProcesses(sharedEnv);

/** This file's database as one process connects to it: its `application_name` names it in the sync observer. */
function databaseUrlAs(name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}

/** The runners' names (their `application_name`), processes and health ports, started by beforeAll. */
const runnerNames = ['runner-1', 'runner-2'];
const runnerChildren: ChildProcess[] = [];
const healthPorts: number[] = [];
let websListening: Promise<WebProcess[]>;

beforeAll(async () => {
  // Before any runner: the lease history must be whole.
  await installSyncObserver();
  // The processes take the longest to start (each loads the whole server): they boot while the rest is set up.
  for (const name of runnerNames) {
    const port = await findFreePort();
    healthPorts.push(port);
    runnerChildren.push(runners.start({ DATABASE_URL: databaseUrlAs(name), RUNNER_HEALTH_PORT: String(port) }));
  }
  websListening = Promise.all(['web-1', 'web-2'].map((name) => webs.start({ DATABASE_URL: databaseUrlAs(name) }, { timeoutMs: 150_000 })));
  // Awaited by the test; a failure to start is its failure, not an unhandled rejection meanwhile.
  websListening.catch(() => {});
  // Slow enough that a kill can land during a call.
  sink = await startEffectSink('/effect', 30);
  [dovecot, smtp] = await Promise.all([startDovecot({ users }), startSmtpServer({ users })]);
}, 60_000);

afterAll(async () => {
  socket?.close();
  webs.killAll();
  runners.killAll();
  await sink.close();
  await smtp?.stop();
  await dovecot?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function deliver(user: MailUser, index: number, phase: string): Promise<string> {
  const messageId = `<${phase}-${index}-${user.user}>`;
  const raw = await buildRawMessage({ from: `Client ${index} <client${index}@example.test>`, to: user.user, subject: `${phase} ${index}`, messageId, text: `Mail ${index}` });
  await appendMessage({ server: dovecot, user: user.user, password: user.password, raw });
  return messageId;
}

/** The readiness of a runner, through its health endpoint (runner/health-server.ts). */
async function runnerReady(healthPort: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).status === 200;
  } catch {
    return false;
  }
}

interface Accepted {
  key: string;
  id: string;
  /** Whether it was sent again to the other web after a failure on the first. */
  retried: boolean;
}

/**
 * A request to `first`, sent again to the other web while the one it reached cannot answer (a
 * connection refused or cut by the kill, as a reverse proxy retries an idempotent request), and
 * after a 503 busy. Anything else is returned as it is.
 */
async function throughEitherWeb(first: number, send: (web: WebProcess) => Promise<Response>): Promise<{ response: Response; retried: boolean }> {
  let target = first;
  let retried = false;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await send(live[target]!);
      if (response.status !== 503 || attempt >= 8) return { response, retried };
    } catch (error) {
      if (attempt >= 8) throw error;
    }
    retried = true;
    target = 1 - target;
    await sleep(100 * attempt);
  }
}

/** The two web processes; the killed one stays in its place (requests to it fail and go to the other). */
const live: WebProcess[] = [];
/** The member's socket on the web that survives. */
let socket: Socket | undefined;

it(
  'two webs and two runners on one database, one of each SIGKILLed mid-load: every accepted run ends once, no effect twice, each mailbox synced by one runner at a time and taken over within its lease, live events reach the surviving web',
  async () => {
    const started = Date.now();
    const phases: Record<string, number> = {};
    const mark = (name: string) => (phases[name] = Math.round((Date.now() - started) / 100) / 10);

    // --- The world: a member with a webhook workflow, two IMAP mailboxes that send through the SMTP peer.
    const member: TestMember = await createMember();
    const { secret: apiKey } = await createApiKeyFor(member, ['messages:write']);
    const { workflow } = await createWorkflow(member, { graph: crashWorkflowGraph(sink.url) });
    const token = randomBytes(32).toString('base64url');
    await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 50, webhookTokenHash: webhookTokenHashOf(token) } });
    const mailboxes: { id: string; address: string }[] = [];
    for (const user of users) {
      const row = await createImapMailbox(member, dovecot, user);
      mailboxes.push(await db().mailbox.update({ where: { id: row.id }, data: { settings: { ...(row.settings as object), smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false } } }));
    }
    const delivered = new Map<string, string[]>(mailboxes.map((mailbox) => [mailbox.id, []]));
    for (const [index, user] of users.entries()) {
      for (let n = 0; n < mailBefore; n += 1) delivered.get(mailboxes[index]!.id)!.push(await deliver(user, n, 'before'));
    }

    // --- The four processes (started by beforeAll), each runner connected as its own name.
    live.push(...(await websListening));
    mark('websListening');
    for (const port of healthPorts) await waitFor(`the runner on health port ${port} to be ready`, () => runnerReady(port), { timeoutMs: 150_000, everyMs: 250 });
    mark('runnersReady');
    // A lease owner names its process (host:pid:random): which runner holds what.
    const pidOf = new Map(runnerNames.map((name, index) => [name, runnerChildren[index]!.pid!]));
    const ownedBy = (writer: string) => {
      const pid = pidOf.get(writer);
      return pid === undefined ? null : (owner: string) => owner.split(':')[1] === String(pid);
    };
    await waitFor('both mailboxes to finish their initial sync', async () => {
      const synced = await db().mailbox.count({ where: { id: { in: mailboxes.map((mailbox) => mailbox.id) }, initialSyncDoneAt: { not: null } } });
      return synced === mailboxes.length;
    }, { timeoutMs: 60_000, everyMs: 250 });
    mark('initialSync');

    // --- The member's socket, on the web that survives.
    const runEnds = new Map<string, string[]>();
    const memberSocket = connectSocket(live[0]!.url, { path: '/api/v1/ws', transports: ['websocket'], extraHeaders: { cookie: member.cookie }, reconnection: false });
    socket = memberSocket;
    await new Promise<void>((resolve, reject) => {
      memberSocket.once('connect', () => resolve());
      memberSocket.once('connect_error', reject);
    });
    memberSocket.on('execution.status', (event: { executionId: string; status: string }) => {
      if (['succeeded', 'failed', 'cancelled'].includes(event.status)) runEnds.set(event.executionId, [...(runEnds.get(event.executionId) ?? []), event.status]);
    });
    let socketDisconnected = false;
    memberSocket.on('disconnect', () => (socketDisconnected = true));

    // --- The load: webhooks and sends alternating between the webs, mail arriving in both mailboxes.
    const hooks: Accepted[] = [];
    const sends: Accepted[] = [];
    const refused: string[] = [];
    let killedRunner = '';
    let killedAt: Date | null = null;
    let kills: Promise<void> = Promise.resolve();
    const killOneOfEach = async () => {
      // The runner holding the first mailbox's live lease (both, if it holds both), so a take-over must happen.
      const victim = await waitFor('a runner to hold the first mailbox', async () => {
        const [holder] = await db().$queryRaw<{ lease_owner: string | null }[]>`
          SELECT lease_owner FROM mailboxes WHERE id = ${mailboxes[0]!.id}::uuid AND lease_until > now()`;
        const index = runnerChildren.findIndex((child) => holder?.lease_owner?.split(':')[1] === String(child.pid));
        return index < 0 ? null : { index };
      }, { timeoutMs: 30_000, everyMs: 50 }).then(({ index }) => index);
      killedRunner = runnerNames[victim]!;
      await Promise.all([webs.kill(live[1]!), runners.kill(runnerChildren[victim]!)]);
      killedAt = (await db().$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`)[0]!.now;
      mark('killed');
    };

    const webhookLoad = (async () => {
      const inFlight: Promise<void>[] = [];
      for (let index = 0; index < webhookTotal; index += 1) {
        if (index === killAfterWebhooks) kills = killOneOfEach();
        const key = `hook-${index}`;
        inFlight.push(
          throughEitherWeb(index % 2, (web) =>
            fetch(`${web.url}/hooks/wf/${token}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'idempotency-key': key },
              body: JSON.stringify({ index, amount: index % 7 }),
              signal: AbortSignal.timeout(20_000),
            }),
          ).then(async ({ response, retried }) => {
            const body = (await response.json()) as { executionId?: string };
            if (response.status === 202 && body.executionId) hooks.push({ key, id: body.executionId, retried });
            else refused.push(`${key}: ${response.status} ${JSON.stringify(body)}`);
          }),
        );
        await sleep(60);
      }
      await Promise.all(inFlight);
    })();
    const sendLoad = (async () => {
      for (let index = 0; index < sendTotal; index += 1) {
        const key = `send-token-${index}`;
        const mailbox = mailboxes[index % 2]!;
        const { response, retried } = await throughEitherWeb(index % 2, (web) =>
          fetch(`${web.url}/api/v1/messages/send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
            body: JSON.stringify({ mailboxId: mailbox.id, clientToken: key, to: [`recipient${index}@example.test`], subject: `Send ${index}`, bodyText: `Body ${index}` }),
            signal: AbortSignal.timeout(20_000),
          }),
        );
        const body = (await response.json()) as { message?: { id: string } };
        if (response.status === 202 && body.message) sends.push({ key, id: body.message.id, retried });
        else refused.push(`${key}: ${response.status} ${JSON.stringify(body)}`);
        await sleep(400);
      }
    })();
    const mailLoad = (async () => {
      for (let n = 0; n < mailDuring; n += 1) {
        for (const [index, user] of users.entries()) delivered.get(mailboxes[index]!.id)!.push(await deliver(user, n, 'during'));
        await sleep(700);
      }
    })();
    await Promise.all([webhookLoad, sendLoad, mailLoad]);
    await kills;
    mark('loadSent');
    expect(refused).toEqual([]);

    // --- The drain: every run ended, every send settled, every message mirrored, every run's end on the socket.
    const executionIds = hooks.map((hook) => hook.id);
    await waitFor('every run to end', async () => (await db().execution.count({ where: { workflowId: workflow.id, status: { in: ['succeeded', 'failed', 'cancelled'] } } })) >= webhookTotal, {
      timeoutMs: 120_000,
      everyMs: 250,
    });
    await waitFor('every send to settle', async () => (await db().outboundMessage.count({ where: { id: { in: sends.map((send) => send.id) }, sendStatus: { in: ['done', 'unknown', 'failed'] } } })) === sendTotal, {
      timeoutMs: 60_000,
      everyMs: 250,
    });
    for (const mailbox of mailboxes) {
      const expected = delivered.get(mailbox.id)!.length;
      await waitFor(`every message of ${mailbox.address} to be mirrored`, async () => (await db().mailMessage.count({ where: { mailboxId: mailbox.id, folderKey: 'INBOX' } })) >= expected, {
        timeoutMs: 60_000,
        everyMs: 250,
      });
    }
    await waitFor('the socket to receive the end of every run', () => executionIds.every((id) => runEnds.has(id)), { timeoutMs: 15_000, everyMs: 100 }).catch(() => null);
    mark('drained');

    // --- What the database, the sink, the SMTP peer, the lease history and the socket say.
    const executions = await db().execution.findMany({ where: { workflowId: workflow.id }, select: { id: true, status: true, error: true } });
    const statuses = countBy(executions.map((execution) => execution.status));
    const items = await db().outboundMessage.findMany({ where: { id: { in: sends.map((send) => send.id) } }, select: { id: true, sendStatus: true, messageIdHeader: true } });
    const sendStatuses = countBy(items.map((item) => item.sendStatus));
    const copies = new Map<string, number>();
    for (const message of smtp.messages) {
      const id = /^Message-ID: (<[^>]+>)/im.exec(message.raw.toString('utf8'))?.[1];
      if (id) copies.set(id, (copies.get(id) ?? 0) + 1);
    }
    const writes = await syncWrites();
    const history = await leaseHistory();
    const takenOver = takeovers(history).filter((takeover) => ownedBy(killedRunner)?.(takeover.from));
    const socketEnds = [...runEnds.values()].reduce((sum, ends) => sum + ends.length, 0);
    console.log(
      `multi-process report: phases (s) ${JSON.stringify(phases)}; killed web-2 and ${killedRunner} after ${killAfterWebhooks} webhooks; ` +
        `runs ${JSON.stringify(statuses)} for ${hooks.length} webhooks accepted (${hooks.filter((hook) => hook.retried).length} sent again to web-1); ` +
        `sends ${JSON.stringify(sendStatuses)} (${sends.filter((send) => send.retried).length} sent again), SMTP copies ${smtp.messages.length}; ` +
        `mirror writes ${JSON.stringify(countBy(writes.map((write) => write.writer)))}; take-overs ${JSON.stringify(
          takenOver.map((takeover) => ({ afterExpiryMs: takeover.at.getTime() - takeover.expiredAt.getTime(), afterKillMs: takeover.at.getTime() - killedAt!.getTime() })),
        )} (lease ${leaseSeconds} s, scan ${lease.scanMs} ms); run ends on the socket ${socketEnds}; sink keys ${sink.hits.size}`,
    );

    // Every accepted webhook has exactly one run, and nothing started a run without its 202.
    expect(new Set(executionIds).size).toBe(webhookTotal);
    expect(executions.map((execution) => execution.id).sort()).toEqual([...executionIds].sort());
    // Each ended; the only failure is a call cut off by the kill, never made twice.
    expect(executions.filter((execution) => !['succeeded', 'failed'].includes(execution.status))).toEqual([]);
    for (const execution of executions.filter((candidate) => candidate.status === 'failed')) expect(execution.error).toMatchObject({ code: 'step_effect_uncertain' });
    expect([...sink.hits.entries()].filter(([, hits]) => hits > 1)).toEqual([]);
    for (const execution of executions.filter((candidate) => candidate.status === 'succeeded')) expect(sink.hits.get(execution.id), execution.id).toBe(1);

    // Every accepted send left once, or at most once when the kill cut it off; none twice, none stuck.
    expect(items).toHaveLength(sendTotal);
    expect(items.filter((item) => !['done', 'unknown'].includes(item.sendStatus))).toEqual([]);
    expect([...copies.entries()].filter(([, count]) => count > 1)).toEqual([]);
    for (const item of items.filter((candidate) => candidate.sendStatus === 'done')) expect(copies.get(item.messageIdHeader), item.id).toBe(1);

    // Every delivered message mirrored once.
    for (const mailbox of mailboxes) {
      const rows = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id, folderKey: 'INBOX' }, select: { messageIdHeader: true } });
      expect(rows.map((row) => row.messageIdHeader).sort()).toEqual([...delivered.get(mailbox.id)!].sort());
    }
    // One runner at a time per mailbox: every sync write was made by the live lease's holder.
    expect(writes.length).toBeGreaterThan(0);
    expect(mirrorWritesOutsideLease(writes, ownedBy)).toEqual([]);
    // The dead runner's mailboxes were taken over, never before its lease ran out, within one scan after.
    expect(takenOver.length).toBeGreaterThan(0);
    for (const takeover of takenOver) {
      expect(takeover.at.getTime()).toBeGreaterThanOrEqual(takeover.expiredAt.getTime());
      expect(takeover.at.getTime() - killedAt!.getTime()).toBeLessThanOrEqual(lease.ttlMs + lease.scanMs + takeoverSlackMs);
    }
    // Both mailboxes are held by the survivor now, and it still answers its probes.
    const survivor = runnerNames.find((name) => name !== killedRunner)!;
    const holders = await db().mailbox.findMany({ where: { id: { in: mailboxes.map((mailbox) => mailbox.id) } }, select: { leaseOwner: true } });
    for (const holder of holders) expect(ownedBy(survivor)!(holder.leaseOwner ?? '')).toBe(true);
    expect(await runnerReady(healthPorts[runnerNames.indexOf(survivor)]!)).toBe(true);

    // The member's socket on the surviving web: each run's end exactly once, finished by runners.
    expect(socketDisconnected).toBe(false);
    expect(executionIds.filter((id) => runEnds.get(id)?.length !== 1)).toEqual([]);
    const ended = new Map(executions.map((execution) => [execution.id, execution.status]));
    expect([...runEnds.entries()].filter(([id, ends]) => ends[0] !== ended.get(id))).toEqual([]);
  },
  budgetMs,
);

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
