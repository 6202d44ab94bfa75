/**
 * A real runner process (runner/main.ts) SIGKILLed in the middle of a delivery of the support outbox, then a new
 * runner: every message exists exactly once on both sides, in order, and nothing is pending. Everything is the
 * product's: the member writes through the routes (which store the messages and queue `support.sync` in the
 * write's transaction), the runner reads and marks them in the database (`supportSyncStore`), and the operator is
 * the fake control plane over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../../core/config';
import { FakeControlPlane } from '../../../testing/control-plane/fake-control-plane';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { runnerProcesses } from '../../../../runner/testing/runner-processes';

const instanceId = 'instance-runner-crash';
const secret = 'runner-crash-instance-secret-0123456789';
const operator = await new FakeControlPlane(instanceId, secret).start();
const link = { CONTROL_PLANE_URL: operator.url, CONTROL_PLANE_INSTANCE_ID: instanceId, CONTROL_PLANE_SECRET: secret };
// This process's routes answer as a linked instance (writes are refused otherwise).
Object.assign(process.env, link);
resetConfigForTests();
const databaseUrl = await useTestDatabase();
const runners = runnerProcesses({ DATABASE_URL: databaseUrl, ...link });

let member: TestMember;
beforeAll(async () => {
  member = await createMember({ name: 'Alice Member' });
});

afterAll(async () => {
  runners.killAll();
  await operator.stop();
});

type Thread = { id: string; pending: boolean; messages: { id: string; direction: string; body: string; pending: boolean }[] };

async function thread(id: string): Promise<Thread> {
  const response = await call('GET', `/api/v1/support/threads/${id}`, { cookie: member.cookie });
  expect(response.status).toBe(200);
  return response.body as Thread;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a runner killed mid-delivery of the support outbox', () => {
  it('delivers every message exactly once, in order, after a restart, and nothing stays pending', { timeout: 180_000 }, async () => {
    // Each PUT is recorded by the operator, then answered 3 s later: the kill lands between the two.
    operator.faults.slowMs = 3_000;
    const opened = await call('POST', '/api/v1/support/requests', { cookie: member.cookie, body: { title: 'Runner crash', need: 'First' } });
    expect(opened.status).toBe(201);
    const threadId = (opened.body as Thread).id;
    for (const body of ['Second', 'Third']) {
      expect((await call('POST', `/api/v1/support/threads/${threadId}/messages`, { cookie: member.cookie, body: { body } })).status).toBe(201);
    }
    const written = (await thread(threadId)).messages.map((message) => message.id);
    expect(written).toHaveLength(3);

    const first = runners.start();
    await until(() => (operator.threads.get(threadId)?.messages.length ?? 0) >= 2, 'the second message at the operator');
    await runners.kill(first);
    expect((await thread(threadId)).messages.map((message) => message.pending)).toEqual([false, true, true]);

    operator.clearFaults();
    operator.reply(threadId, { authorName: 'Support team', body: 'Received.' });
    // The exchange every runner makes at its start picks the outbox up (the job the kill left behind stays locked).
    runners.start();
    await until(async () => {
      const current = await thread(threadId);
      return !current.pending && current.messages.some((message) => message.direction === 'team');
    }, 'the new runner to deliver everything and pull the reply', 120_000);

    const remote = operator.threads.get(threadId)!;
    expect(remote.messages.filter((message) => message.direction === 'member').map((message) => message.id)).toEqual(written);
    expect(new Set(remote.messages.map((message) => message.id)).size).toBe(remote.messages.length);
    // Sent again after the kill: the operator absorbed the second PUT of the same id.
    expect(remote.messages.find((message) => message.id === written[1])!.puts).toBeGreaterThanOrEqual(2);
    expect((await thread(threadId)).messages.map((message) => [message.direction, message.body, message.pending])).toEqual([
      ['member', 'First', false],
      ['member', 'Second', false],
      ['member', 'Third', false],
      ['team', 'Received.', false],
    ]);
  });
});
