/**
 * A real runner process (runner/main.ts, task `support.sync` queued as a member's write queues it) SIGKILLed in
 * the middle of a delivery, then a new runner: every message exists exactly once on both sides, in order, and
 * nothing is pending. The runner's store is the file-backed memory store (bound by
 * server/testing/control-plane/runner-store.ts); at the merge, the same scenario over sup-core's database store
 * only needs the members' writes made through the service instead of the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueue } from '../../../core/jobs/enqueue';
import { jobKeys } from '../../../core/jobs/catalogue';
import { FakeControlPlane } from '../../../testing/control-plane/fake-control-plane';
import { MemorySupportStore } from '../../../testing/control-plane/memory-store';
import { useTestDatabase } from '../../../testing/test-database';
import { runnerProcesses } from '../../../../runner/testing/runner-processes';

const databaseUrl = await useTestDatabase();
const instanceId = 'instance-runner-crash';
const secret = 'runner-crash-instance-secret-0123456789';
const directory = mkdtempSync(path.join(tmpdir(), 'support-runner-crash-'));
const storeFile = path.join(directory, 'store.json');
const operator = await new FakeControlPlane(instanceId, secret).start();
const runners = runnerProcesses(
  { DATABASE_URL: databaseUrl, SUPPORT_STORE_FILE: storeFile, CONTROL_PLANE_URL: operator.url, CONTROL_PLANE_INSTANCE_ID: instanceId, CONTROL_PLANE_SECRET: secret },
  { imports: ['./server/testing/control-plane/runner-store.ts'] },
);

afterAll(async () => {
  runners.killAll();
  await operator.stop();
  rmSync(directory, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a member's write queues (sup-core's service, in the write's transaction). */
const queueSync = () => enqueue('support.sync', {}, { jobKey: jobKeys.supportSync() });

describe('a runner killed mid-delivery of the support outbox', () => {
  it('delivers every message exactly once, in order, after a restart, and nothing stays pending', { timeout: 180_000 }, async () => {
    const members = new MemorySupportStore(storeFile);
    const author = { name: 'Alice', memberId: 'm-1' };
    const { threadId } = members.createThread({ kind: 'request', subject: 'Runner crash', body: 'First', author });
    const written = [members.thread(threadId).messages[0].id];
    for (const body of ['Second', 'Third']) written.push(members.addMessage(threadId, { body, author }));

    operator.faults.slowMs = 3_000;
    const first = runners.start();
    await queueSync();
    await until(() => (operator.threads.get(threadId)?.messages.length ?? 0) >= 2, 'the second message at the operator');
    await runners.kill(first);
    members.reload();
    expect(members.outboxRow(written[1])!.deliveredAt).toBeNull();

    operator.clearFaults();
    operator.reply(threadId, { authorName: 'Support team', body: 'Received.' });
    runners.start();
    await queueSync();
    await until(() => {
      members.reload();
      const thread = members.thread(threadId);
      return !thread.pending && thread.messages.some((message) => message.direction === 'team');
    }, 'the new runner to deliver everything and pull the reply', 120_000);

    const remote = operator.threads.get(threadId)!;
    expect(remote.messages.filter((message) => message.direction === 'member').map((message) => message.id)).toEqual(written);
    expect(new Set(remote.messages.map((message) => message.id)).size).toBe(remote.messages.length);
    // Sent again after the kill (the runner's every-minute exchange may have sent it once more, harmlessly).
    expect(remote.messages.find((message) => message.id === written[1])!.puts).toBeGreaterThanOrEqual(2);
    expect(members.thread(threadId).messages.map((message) => [message.direction, message.body])).toEqual([
      ['member', 'First'],
      ['member', 'Second'],
      ['member', 'Third'],
      ['team', 'Received.'],
    ]);
  });
});
