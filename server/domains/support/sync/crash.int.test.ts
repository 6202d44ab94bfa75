/**
 * A sync process killed with SIGKILL in the middle of a delivery (the operator holds the message, the process
 * never learnt it) and started again: every message exists exactly once on both sides, in order, and nothing is
 * pending. The process is a real child process running the sync loop over a store written through to a file
 * (server/testing/control-plane/sync-child.ts), against the fake control plane over real HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FakeControlPlane } from '../../../testing/control-plane/fake-control-plane';
import { MemorySupportStore } from '../../../testing/control-plane/memory-store';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const instanceId = 'instance-crash';
const secret = 'crash-test-instance-secret-0123456789';
const directory = mkdtempSync(path.join(tmpdir(), 'support-crash-'));
const children = new Set<ChildProcess>();
let operator: FakeControlPlane | null = null;

function startSync(storeFile: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/testing/control-plane/sync-child.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', SUPPORT_STORE_FILE: storeFile, CONTROL_PLANE_URL: operator!.url, CONTROL_PLANE_INSTANCE_ID: instanceId, CONTROL_PLANE_SECRET: secret },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterEach(async () => {
  for (const child of children) await kill(child);
  await operator?.stop();
  operator = null;
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('a sync process killed mid-delivery', () => {
  it('delivers every message exactly once, in order, after a restart, and nothing stays pending', { timeout: 90_000 }, async () => {
    operator = await new FakeControlPlane(instanceId, secret).start();
    const storeFile = path.join(directory, 'store.json');
    const members = new MemorySupportStore(storeFile);
    const { threadId } = members.createThread({ kind: 'request', subject: 'Crash', body: 'First', author: { name: 'Alice', memberId: 'm-1' } });
    const written = [members.thread(threadId).messages[0].id];
    for (const body of ['Second', 'Third', 'Fourth']) written.push(members.addMessage(threadId, { body, author: { name: 'Alice', memberId: 'm-1' } }));

    // Every answer takes 2 s: the process is killed while the operator holds the second message and its answer is on the way.
    operator.faults.slowMs = 2_000;
    const first = startSync(storeFile);
    await until(() => (operator!.threads.get(threadId)?.messages.length ?? 0) >= 2, 'the second message at the operator');
    await kill(first);
    members.reload();
    expect(members.outboxRow(written[1])!.deliveredAt).toBeNull();

    operator.clearFaults();
    operator.reply(threadId, { authorName: 'Support team', body: 'Received, thanks.' });
    startSync(storeFile);
    await until(() => {
      members.reload();
      const thread = members.thread(threadId);
      return !thread.pending && thread.messages.some((message) => message.direction === 'team');
    }, 'the restarted process to deliver everything and pull the reply');

    const remote = operator.threads.get(threadId)!;
    expect(remote.messages.filter((message) => message.direction === 'member').map((message) => message.id)).toEqual(written);
    expect(remote.messages.map((message) => message.id).length).toBe(new Set(remote.messages.map((message) => message.id)).size);
    expect(remote.messages.find((message) => message.id === written[1])!.puts).toBe(2);
    const local = members.thread(threadId);
    expect(local.messages.map((message) => [message.direction, message.body])).toEqual([
      ['member', 'First'],
      ['member', 'Second'],
      ['member', 'Third'],
      ['member', 'Fourth'],
      ['team', 'Received, thanks.'],
    ]);
    expect(local.messages.every((message) => !message.pending)).toBe(true);
  });
});
