/**
 * The sync loop against the fake control plane over real HTTP (docs/support-protocol.md). The store is the
 * in-memory one with the interface's semantics; to run these against sup-core's database store, make `newStore`
 * return an object with the same test methods (createThread, addMessage, thread, outboxRow) over the real service.
 * Whatever the operator does (down, 5xx, slow, garbage, lost acknowledgements, duplicated or reordered changes),
 * afterwards every message exists exactly once on both sides, in order, and nothing is pending.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeControlPlane } from '../../../testing/control-plane/fake-control-plane';
import { MemorySupportStore } from '../../../testing/control-plane/memory-store';
import { withOperatorBranding } from './branding';
import { createControlPlaneClient, type ControlPlaneClientOptions } from './client';
import { runSupportSync, type SyncLogger } from './run';
import type { OperatorBranding } from './store';

const instanceId = 'instance-test-1';
const secret = 'a-very-secret-instance-credential-0123456789';
const alice = { name: 'Alice Martin', memberId: 'member-alice' };

let operator: FakeControlPlane;
let store: MemorySupportStore;
let clock: Date;
let logged: string[];

function newStore(): MemorySupportStore {
  return new MemorySupportStore();
}

const logger: SyncLogger = {
  info: (fields, message) => logged.push(`${message} ${JSON.stringify(fields)}`),
  warn: (fields, message) => logged.push(`${message} ${JSON.stringify(fields)}`),
};

function exchange(clientOptions: ControlPlaneClientOptions = {}) {
  const client = createControlPlaneClient({ url: operator.url, instanceId, secret }, { timeoutMs: 2_000, ...clientOptions });
  return runSupportSync({ store, client, now: () => clock, random: () => 0.5, log: logger });
}

/** Advances the loop's clock past every retry and runs exchanges until nothing is left to deliver. */
async function settle(rounds = 10) {
  for (let round = 0; round < rounds; round += 1) {
    clock = new Date(clock.getTime() + 60 * 60_000);
    const outcome = await exchange();
    if (outcome.failed === 0 && outcome.synced && !outcome.more && (await store.nextOutbox(1, clock)).length === 0) return;
  }
  throw new Error('the outbox did not settle');
}

/** Both sides hold every message once, in the same order, and nothing is pending. */
function expectConverged(threadId: string) {
  const local = store.thread(threadId);
  const remote = operator.threads.get(threadId);
  expect(remote).toBeDefined();
  expect(local.pending).toBe(false);
  expect(local.messages.every((message) => !message.pending)).toBe(true);
  const remoteIds = remote!.messages.map((message) => message.id);
  expect(new Set(remoteIds).size).toBe(remoteIds.length);
  const localMember = local.messages.filter((message) => message.direction === 'member').map((message) => message.id);
  const remoteMember = remote!.messages.filter((message) => message.direction === 'member').map((message) => message.id);
  expect(remoteMember).toEqual(localMember);
  const localTeam = local.messages.filter((message) => message.direction === 'team').map((message) => message.operatorMessageId);
  const remoteTeam = remote!.messages.filter((message) => message.direction === 'team').map((message) => message.id);
  expect(new Set(localTeam).size).toBe(localTeam.length);
  expect([...localTeam].sort()).toEqual([...remoteTeam].sort());
}

beforeEach(async () => {
  operator = await new FakeControlPlane(instanceId, secret).start();
  store = newStore();
  clock = new Date();
  logged = [];
});

afterEach(async () => {
  await operator.stop();
});

describe('delivery of the outbox', () => {
  it('delivers a new thread, then its messages, in order, and clears pending', async () => {
    const { threadId } = store.createThread({ kind: 'request', subject: 'A new report', body: 'We need a monthly report.', author: alice });
    store.addMessage(threadId, { body: 'Also by region.', author: alice });
    store.addMessage(threadId, { body: 'And by product.', author: alice });
    expect(store.thread(threadId).pending).toBe(true);

    const outcome = await exchange();

    expect(outcome).toMatchObject({ delivered: 3, failed: 0, synced: true });
    const puts = operator.requests.filter((request) => request.method === 'PUT').map((request) => request.path);
    expect(puts[0]).toBe(`/v1/instances/${instanceId}/threads/${threadId}`);
    expect(puts.slice(1).every((path) => path.startsWith(`/v1/instances/${instanceId}/threads/${threadId}/messages/`))).toBe(true);
    expect(operator.threads.get(threadId)).toMatchObject({ kind: 'request', subject: 'A new report', status: 'received' });
    expectConverged(threadId);
    expect((await store.linkState()).syncedAt).toEqual(clock);
  });

  it('an operator down during a send loses nothing: the item waits with backoff, then goes once', async () => {
    const { threadId } = store.createThread({ kind: 'conversation', subject: 'Question', body: 'Hello?', author: alice });
    operator.faults.down = true;

    const outcome = await exchange();

    expect(outcome).toMatchObject({ delivered: 0, failed: 1, synced: false });
    const row = store.outboxRow(store.thread(threadId).messages[0].id)!;
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBe('control plane: unreachable');
    expect(new Date(row.nextAttemptAt!).getTime()).toBeGreaterThan(clock.getTime());
    expect(await store.nextOutbox(10, clock)).toEqual([]);
    expect(store.thread(threadId).pending).toBe(true);

    operator.clearFaults();
    await settle();
    expectConverged(threadId);
  });

  it('a 5xx is retried later; a thread that failed holds back its later messages (never a message before its thread)', async () => {
    const { threadId } = store.createThread({ kind: 'conversation', subject: 'Order', body: 'First', author: alice });
    store.addMessage(threadId, { body: 'Second', author: alice });
    operator.faults.serverErrors = 1;

    const outcome = await exchange();

    expect(outcome).toMatchObject({ delivered: 0, failed: 1 });
    expect(operator.threads.has(threadId)).toBe(false);
    expect(operator.requests.filter((request) => request.method === 'PUT')).toHaveLength(1);
    await settle();
    expectConverged(threadId);
    expect(operator.requests.some((request) => request.status === 404)).toBe(false);
  });

  it('a lost acknowledgement makes a retry that the operator answers as a duplicate: one message, not two', async () => {
    const { threadId } = store.createThread({ kind: 'conversation', subject: 'Lost', body: 'First', author: alice });
    const second = store.addMessage(threadId, { body: 'Second', author: alice });
    operator.faults.loseAcks = 1;

    const outcome = await exchange();
    expect(outcome.delivered).toBe(0);
    expect(operator.threads.get(threadId)!.messages).toHaveLength(1);

    await settle();
    expectConverged(threadId);
    expect(operator.threads.get(threadId)!.messages.map((message) => message.puts)).toEqual([2, 1]);
    expect(store.outboxRow(second)!.deliveredAt).not.toBeNull();
  });

  it('a slow answer past the timeout is a retryable failure, and the retry does not duplicate', async () => {
    const { threadId } = store.createThread({ kind: 'conversation', subject: 'Slow', body: 'Anyone?', author: alice });
    operator.faults.slowMs = 1_500;

    const outcome = await exchange({ timeoutMs: 300 });

    expect(outcome).toMatchObject({ delivered: 0, failed: 1 });
    expect(store.outboxRow(store.thread(threadId).messages[0].id)!.lastError).toBe('control plane: timeout');
    operator.clearFaults();
    await settle();
    expectConverged(threadId);
  });

  it('a garbage answer to a send is retried; the operator kept it once', async () => {
    const { threadId } = store.createThread({ kind: 'request', subject: 'Garbage', body: 'Need', author: alice });
    operator.faults.garbage = 1;

    const outcome = await exchange();

    expect(outcome).toMatchObject({ delivered: 0, failed: 1 });
    expect(store.outboxRow(store.thread(threadId).messages[0].id)!.lastError).toBe('control plane: malformed (HTTP 200)');
    await settle();
    expectConverged(threadId);
  });

  it('an answer past the size bound is refused unread and retried', async () => {
    const { threadId } = store.createThread({ kind: 'request', subject: 'Huge', body: 'Need', author: alice });
    operator.faults.oversized = 1;
    expect(await exchange()).toMatchObject({ delivered: 0, failed: 1 });
    expect(store.outboxRow(store.thread(threadId).messages[0].id)!.lastError).toBe('control plane: too_large');
    await settle();
    expectConverged(threadId);
  });

  it('an answer of another protocol version is not trusted', async () => {
    const { threadId } = store.createThread({ kind: 'request', subject: 'Version', body: 'Need', author: alice });
    operator.faults.wrongVersion = 1;
    expect(await exchange()).toMatchObject({ delivered: 0, failed: 1 });
    await settle();
    expectConverged(threadId);
  });

  it('retries back off exponentially, capped, with jitter', async () => {
    const { threadId } = store.createThread({ kind: 'conversation', subject: 'Backoff', body: 'x', author: alice });
    operator.faults.down = true;
    const messageId = store.thread(threadId).messages[0].id;
    const delays: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      await exchange();
      const row = store.outboxRow(messageId)!;
      delays.push(new Date(row.nextAttemptAt!).getTime() - clock.getTime());
      clock = new Date(row.nextAttemptAt!);
    }
    // random() = 0.5: three quarters of 5 s, 10 s, 20 s, ... up to three quarters of the 15-minute cap.
    expect(delays.slice(0, 3)).toEqual([3_750, 7_500, 15_000]);
    expect(delays.at(-1)).toBe(675_000);
    expect(store.outboxRow(messageId)!.attempts).toBe(12);
  });
});

describe('changes from the operator', () => {
  async function deliveredThread(kind: 'request' | 'conversation' = 'request') {
    const { threadId } = store.createThread({ kind, subject: 'Changes', body: 'Hello', author: alice });
    await exchange();
    return threadId;
  }

  it('team replies, status and assignee are applied and the cursor moves', async () => {
    const threadId = await deliveredThread();
    operator.reply(threadId, { authorName: 'Support team', body: 'We are on it.' });
    operator.setStatus(threadId, 'quoted');
    operator.setAssignee(threadId, 'Bob');

    const outcome = await exchange();

    expect(outcome.changedThreadIds).toEqual([threadId]);
    const thread = store.thread(threadId);
    expect(thread).toMatchObject({ status: 'quoted', assigneeName: 'Bob' });
    expect(thread.messages.map((message) => [message.direction, message.body])).toEqual([
      ['member', 'Hello'],
      ['team', 'We are on it.'],
    ]);
    expect((await store.linkState()).cursor).toBe(`c${operator.changes.length}`);
    expectConverged(threadId);
  });

  it('duplicate deliveries of a change make one reply', async () => {
    const threadId = await deliveredThread();
    operator.faults.duplicateChanges = true;
    operator.reply(threadId, { authorName: 'Support team', body: 'Once.' });
    await exchange();
    operator.reply(threadId, { authorName: 'Support team', body: 'Twice.' });
    await exchange();

    expect(store.thread(threadId).messages.filter((message) => message.direction === 'team').map((message) => message.body)).toEqual(['Once.', 'Twice.']);
    expectConverged(threadId);
  });

  it('changes out of order: the newer status and assignee win', async () => {
    const threadId = await deliveredThread();
    operator.faults.reverseChanges = true;
    operator.setStatus(threadId, 'in_study');
    operator.setStatus(threadId, 'quoted');
    operator.setAssignee(threadId, 'Bob');
    operator.setAssignee(threadId, null);

    await exchange();

    expect(store.thread(threadId)).toMatchObject({ status: 'quoted', assigneeName: null });
  });

  it('a status that does not belong to the thread kind is ignored', async () => {
    const threadId = await deliveredThread('conversation');
    operator['record']({ type: 'status', threadId, status: 'quoted', at: new Date().toISOString() });
    await exchange();
    expect(store.thread(threadId).status).toBe('open');
    expect((await store.linkState()).cursor).toBe(`c${operator.changes.length}`);
  });

  it('a garbage change page applies nothing and keeps the cursor; the next exchange applies it', async () => {
    const threadId = await deliveredThread();
    const cursor = (await store.linkState()).cursor;
    const syncedAt = (await store.linkState()).syncedAt;
    operator.reply(threadId, { authorName: 'Support team', body: 'Hi' });
    operator.faults.garbage = 1;
    clock = new Date(clock.getTime() + 1_000);

    const outcome = await exchange();

    expect(outcome.synced).toBe(false);
    expect(await store.linkState()).toEqual({ cursor, syncedAt });
    expect(store.thread(threadId).messages).toHaveLength(1);
    await exchange();
    expect(store.thread(threadId).messages).toHaveLength(2);
  });

  it('a lost acknowledgement is settled by the ack in the changes', async () => {
    const { threadId, messageId } = store.createThread({ kind: 'conversation', subject: 'Ack', body: 'Hello', author: alice });
    operator.faults.loseAcks = 1;
    // The PUT is recorded and its answer lost (a reset: the exchange stops there).
    const outcome = await exchange();
    expect(outcome).toMatchObject({ delivered: 0, failed: 1 });
    // Before the retry is due, the next exchange pulls the operator's ack: delivered without a second PUT.
    clock = new Date(clock.getTime() + 1_000);
    await exchange();
    expect(store.outboxRow(messageId)!.deliveredAt).not.toBeNull();
    expect(store.thread(threadId).pending).toBe(false);
    expect(operator.threads.get(threadId)!.messages[0].puts).toBe(1);
  });

  it('pages are followed while the operator has more', async () => {
    const threadId = await deliveredThread('conversation');
    for (let index = 0; index < 450; index += 1) operator.reply(threadId, { authorName: 'Team', body: `Reply ${index}` });
    await exchange();
    expect(store.thread(threadId).messages).toHaveLength(451);
    expectConverged(threadId);
  });
});

describe('authentication and secrets', () => {
  it('the secret never travels and never appears in errors or logs', async () => {
    const { threadId } = store.createThread({ kind: 'conversation', subject: 'Secret', body: 'Hello', author: alice });
    operator.faults.serverErrors = 1;
    await exchange();
    await settle();
    expectConverged(threadId);
    expect(operator.rawRequests.length).toBeGreaterThan(0);
    for (const request of operator.rawRequests) expect(request).not.toContain(secret);
    for (const line of logged) expect(line).not.toContain(secret);
    expect(store.outboxRow(store.thread(threadId).messages[0].id)!.lastError).not.toContain(secret);
  });

  it('a clock skewed past the window is refused (401) and retried later, not dropped', async () => {
    const { threadId } = store.createThread({ kind: 'conversation', subject: 'Skew', body: 'Hello', author: alice });
    const skewed = await exchange({ nowSeconds: () => Math.floor(Date.now() / 1000) - 600 });
    expect(skewed).toMatchObject({ delivered: 0, failed: 1 });
    expect(store.outboxRow(store.thread(threadId).messages[0].id)!.lastError).toBe('control plane: unauthorized (HTTP 401)');
    await settle();
    expectConverged(threadId);
  });

  it('a wrong secret is refused', async () => {
    store.createThread({ kind: 'conversation', subject: 'Wrong', body: 'Hello', author: alice });
    const client = createControlPlaneClient({ url: operator.url, instanceId, secret: 'not-the-secret-at-all-000000' });
    const outcome = await runSupportSync({ store, client, now: () => clock, random: () => 0.5 });
    expect(outcome).toMatchObject({ delivered: 0, failed: 1, synced: false });
    expect(operator.threads.size).toBe(0);
  });

  it('the operator host is allowed explicitly through the network guard, even on a private address; nothing else is', async () => {
    // A name of the operator resolving to a loopback address: allowed, because it is the configured host.
    const named = createControlPlaneClient(
      { url: operator.url.replace('127.0.0.1', 'cp.operator.test'), instanceId, secret },
      { lookup: async () => [{ address: '127.0.0.1', family: 4 }] },
    );
    await expect(named.changes(null)).resolves.toMatchObject({ hasMore: false });
    // A cloud metadata address is refused whatever the configuration says.
    const metadata = createControlPlaneClient({ url: 'http://169.254.169.254', instanceId, secret });
    await expect(metadata.changes(null)).rejects.toMatchObject({ kind: 'refused_by_guard' });
  });
});

describe('branding from the operator', () => {
  const brand: OperatorBranding = {
    name: 'Acme Mail',
    logo: { light: 'https://cdn.acme.test/logo.svg', dark: null },
    favicon: null,
    colors: { primary: '#112233', onPrimary: '#FFFFFF', accent: null, onAccent: null },
    supportUrl: 'https://help.acme.test',
    poweredBy: 'Acme',
    login: { welcome: { en: 'Welcome to Acme', fr: 'Bienvenue chez Acme' }, image: null },
  };

  it('is fetched by the sync, kept, and answered as source control_plane over the environment', async () => {
    operator.setBranding(brand);
    await exchange();
    const kept = await store.cachedBranding();
    expect(kept?.branding).toEqual(brand);
    const environment = {
      name: 'Mailflow',
      source: 'environment' as const,
      logo: { light: null, dark: null },
      favicon: 'https://env.test/favicon.ico',
      colors: { primary: '#000000', onPrimary: null, accent: '#ABCDEF', onAccent: null },
      supportUrl: null,
      poweredBy: null,
      login: { welcome: null, image: null },
      instance: { suspended: false },
    };
    expect(withOperatorBranding(environment, kept!.branding)).toEqual({
      ...environment,
      name: 'Acme Mail',
      source: 'control_plane',
      logo: { light: 'https://cdn.acme.test/logo.svg', dark: 'https://cdn.acme.test/logo.svg' },
      colors: { primary: '#112233', onPrimary: '#FFFFFF', accent: '#ABCDEF', onAccent: null },
      supportUrl: 'https://help.acme.test',
      poweredBy: 'Acme',
      login: { welcome: { en: 'Welcome to Acme', fr: 'Bienvenue chez Acme' }, image: null },
    });
  });

  it('an invalid branding (a colour not #RRGGBB, an http URI) is refused and the kept one stays', async () => {
    operator.setBranding(brand);
    await exchange();
    operator.setBranding({ ...brand, name: 'Evil', colors: { ...brand.colors, primary: 'red' } });
    clock = new Date(clock.getTime() + 11 * 60_000);
    await exchange();
    expect((await store.cachedBranding())?.branding.name).toBe('Acme Mail');
    operator.setBranding({ ...brand, name: 'Evil', logo: { light: 'http://cdn.acme.test/logo.svg', dark: null } });
    clock = new Date(clock.getTime() + 11 * 60_000);
    await exchange();
    expect((await store.cachedBranding())?.branding.name).toBe('Acme Mail');
  });

  it('is refreshed only when older than ten minutes', async () => {
    operator.setBranding(brand);
    await exchange();
    operator.setBranding({ ...brand, name: 'Newer' });
    clock = new Date(clock.getTime() + 60_000);
    await exchange();
    expect((await store.cachedBranding())?.branding.name).toBe('Acme Mail');
    clock = new Date(clock.getTime() + 10 * 60_000);
    await exchange();
    expect((await store.cachedBranding())?.branding.name).toBe('Newer');
  });
});
