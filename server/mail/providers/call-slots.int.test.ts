/**
 * Issue 25 §3: Microsoft Graph serves at most 4 requests in flight per mailbox. Every Graph exchange holds one of
 * the account's slots in the database (call-slots.ts), so the limit holds across every process calling the
 * mailbox (the runner syncing it, a runner sending from it, a web process reading a body), not only within one
 * adapter. The fake Graph enforces the limit as Graph does (429 `ApplicationThrottled`, MailboxConcurrency) once
 * its answers take time (`concurrency.delayMs`), so requests overlap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { adapterHarness, syncToTheEnd, type AdapterHarness } from '../../testing/fakes/adapter-harness';
import { startFakeGraph, type FakeGraphServer } from '../../testing/fakes/graph-server';
import { buildRawMessage } from '../../testing/mail-servers/deliver';
import { useTestDatabase } from '../../testing/test-database';
import { callSlots, graphConcurrentRequests, type ReleaseSlot } from './call-slots';
import { createGraphAdapter } from './graph/adapter';
import { ProviderRateLimited } from './provider-errors';

await useTestDatabase();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const day = 86_400_000;
const now = Math.floor(Date.now() / 1000) * 1000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

let keys = 0;
const freshKey = () => `mail_provider_b:slots-${(keys += 1)}-${now}@example.test`;

/** Resolves with what the promise settles to, or 'pending' when it has not settled within `ms`. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
}

describe('an account’s concurrent provider calls are held in the database', () => {
  it('never more than 4 at once: 12 callers of one account take turns, and each gets a slot', async () => {
    const slots = callSlots(freshKey(), graphConcurrentRequests);
    let held = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        const release = await slots.take(5_000);
        held += 1;
        peak = Math.max(peak, held);
        await new Promise((resolve) => setTimeout(resolve, 40));
        held -= 1;
        await release();
      }),
    );
    // Never more than 4; more than one at a time (the callers did overlap: 12 of 40 ms each in ≈ 0.5 s).
    expect(peak).toBeLessThanOrEqual(graphConcurrentRequests);
    expect(peak).toBeGreaterThan(1);
  });

  it('shared by processes: with 3 held by another process one more is taken here, and a fifth waits until that process gives its back', async () => {
    const key = freshKey();
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/testing/call-slots-holder.ts'], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent', SLOTS_KEY: key, SLOTS_HOLD: '3' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('held 3')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the holder exited (${code}) before holding its slots`)));
    });

    const slots = callSlots(key, graphConcurrentRequests);
    const fourth = await settledWithin(slots.take(5_000), 2_000);
    expect(fourth).toBeTypeOf('function');
    const fifth = slots.take(5_000);
    expect(await settledWithin(fifth, 400)).toBe('pending');

    child.stdin!.end();
    expect(await exited).toBe(0);
    const release = await settledWithin(fifth, 2_000);
    expect(release).toBeTypeOf('function');
    await (release as ReleaseSlot)();
    await (fourth as ReleaseSlot)();
  });

  it('a slot whose holder never gave it back is free again at its deadline, and the late give-back frees nothing of the new holder', async () => {
    const key = freshKey();
    const slots = callSlots(key, graphConcurrentRequests);
    // One after the other, so the first taker holds slot 1 (the first free slot is taken).
    const releases: ReleaseSlot[] = [];
    for (let index = 0; index < 4; index += 1) releases.push(await slots.take(5_000));
    const waiting = slots.take(5_000);
    expect(await settledWithin(waiting, 300)).toBe('pending');
    // The holder of slot 1 died: its deadline (the exchange's timeout and a margin) is what frees it.
    await db().$executeRaw`UPDATE provider_call_slots SET held_until = clock_timestamp() - interval '1 second' WHERE key = ${key} AND slot = 1`;
    const taken = await settledWithin(waiting, 2_000);
    expect(taken).toBeTypeOf('function');
    await releases[0]();
    const holders = await db().$queryRaw<{ held: bigint }[]>`SELECT count(*) AS held FROM provider_call_slots WHERE key = ${key} AND holder IS NOT NULL`;
    expect(Number(holders[0].held)).toBe(4);
    await Promise.all([...releases.slice(1), taken as ReleaseSlot].map((release) => release()));
  });

  it('a caller waiting for a slot stops when its work is cancelled', async () => {
    const slots = callSlots(freshKey(), graphConcurrentRequests);
    const releases = await Promise.all(Array.from({ length: 4 }, () => slots.take(5_000)));
    const cancel = new AbortController();
    const waiting = slots.take(5_000, cancel.signal);
    setTimeout(() => cancel.abort(new Error('lease lost')), 100);
    await expect(waiting).rejects.toThrow('lease lost');
    await Promise.all(releases.map((release) => release()));
  });
});

async function graphWith(messages: number): Promise<FakeGraphServer> {
  const server = await startFakeGraph();
  cleanups.push(() => server.close());
  // Each answer takes 30 ms, so an adapter's 4 concurrent reads overlap on the server.
  server.concurrency.delayMs = 30;
  for (let index = 0; index < messages; index += 1) {
    const at = new Date(now - (1 + (index % 20)) * 3_600_000);
    const raw = await buildRawMessage({
      from: `Supplier ${index} <billing${index}@supplier.example.test>`,
      to: 'shared@example.test',
      subject: `Invoice ${2000 + index}`,
      text: `Hello,\n\nplease find invoice ${2000 + index} for November attached.\n\nRegards`,
      messageId: `<slots-${index}-${now}@supplier.example.test>`,
      date: at,
    });
    server.addMessage(raw, { receivedDateTime: at });
  }
  return server;
}

/** A mailbox of the shared account, as a second member (or a second runner) connects it. */
function sharedAccountHarness(server: FakeGraphServer, sharedConcurrency: boolean): Promise<AdapterHarness> {
  return adapterHarness(
    'mail_provider_b',
    (options) =>
      createGraphAdapter({
        ...options,
        address: 'shared@example.test',
        baseUrl: server.baseUrl,
        allowPrivate: true,
        quota: { perWindow: 1_000_000_000, windowSeconds: 1 },
        sharedConcurrency,
      }),
    { tokens: ['graph-token'], initialSince: new Date(now - 30 * day) },
  );
}

describe('two syncs of one Graph account at once stay within its 4 concurrent requests', () => {
  it('each sync mirrors every message and Graph refuses none of their requests', async () => {
    const server = await graphWith(40);
    const [first, second] = [await sharedAccountHarness(server, true), await sharedAccountHarness(server, true)];
    await Promise.all([syncToTheEnd(first), syncToTheEnd(second)]);
    expect((await first.rows()).length).toBe(40);
    expect((await second.rows()).length).toBe(40);
    expect(server.concurrency.refusals).toBe(0);
    expect(server.concurrency.peak).toBeLessThanOrEqual(4);
  });

  it('the fake does refuse them when each adapter keeps only its own bound of 4', async () => {
    const server = await graphWith(40);
    const [first, second] = [await sharedAccountHarness(server, false), await sharedAccountHarness(server, false)];
    const outcomes = await Promise.allSettled([syncToTheEnd(first), syncToTheEnd(second)]);
    expect(outcomes.some((outcome) => outcome.status === 'rejected' && outcome.reason instanceof ProviderRateLimited)).toBe(true);
    expect(server.concurrency.refusals).toBeGreaterThan(0);
  });
});
