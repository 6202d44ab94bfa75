/**
 * Turns left `running` by a web process that died: the heartbeat a live turn writes, the sweep that
 * settles stale ones (failed, `assistant.turn_interrupted`, partial text kept), and a stopping web
 * process settling its own turns at once.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { interruptedError, sweepInterruptedTurns, turnStaleAfterMs } from './sweep';
import { assistantTestHooks } from './turn';
import { interruptTurns, turnSettled } from './turn-registry';

await useTestDatabase();

let alice: TestMember;
let vendor: FakeVendorServer;

beforeAll(async () => {
  alice = await createMember({ name: 'Alice' });
  vendor = await startFakeVendor('openai');
  assistantTestHooks.net = fakeNet;
  await db().llmConnection.create({
    data: { provider: 'ai_generic_compatible', label: 'Fake', baseUrl: `${vendor.origin}/v1`, enabledModels: ['fake-large'], isDefault: true, withoutApiKey: true },
  });
});

afterAll(async () => {
  assistantTestHooks.net = undefined;
  await vendor.close();
});

beforeEach(() => vendor.reset());

afterEach(async () => {
  assistantTestHooks.heartbeatMs = undefined;
  for (const row of await db().assistantConversation.findMany({ where: { status: 'running' } })) {
    await call('POST', `/api/v1/assistant/conversations/${row.id}/cancel`, { cookie: alice.cookie });
    await turnSettled(row.id);
  }
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** A conversation as a dead process leaves it: `running`, its message `streaming` with some text, last written `writtenAt`. */
async function leftRunning(writtenAt: Date, content = 'Half an answer') {
  const conversation = await db().assistantConversation.create({ data: { memberId: alice.id, title: 'Left running', status: 'running' } });
  await db().assistantMessage.create({ data: { conversationId: conversation.id, seq: 1, role: 'user', content: 'Question', status: 'done' } });
  const message = await db().assistantMessage.create({
    data: { conversationId: conversation.id, seq: 2, role: 'assistant', content, parts: [{ type: 'text', text: content }], status: 'streaming' },
  });
  // Raw SQL: Prisma would stamp `updated_at` with now.
  await db().$executeRaw`UPDATE assistant_messages SET updated_at = ${writtenAt} WHERE id = ${message.id}::uuid`;
  await db().$executeRaw`UPDATE assistant_conversations SET updated_at = ${writtenAt} WHERE id = ${conversation.id}::uuid`;
  return { conversationId: conversation.id, messageId: message.id };
}

async function read(id: string) {
  const response = await call('GET', `/api/v1/assistant/conversations/${id}`, { cookie: alice.cookie });
  expect(response.status).toBe(200);
  return response.body;
}

async function startSlowTurn() {
  const created = await call('POST', '/api/v1/assistant/conversations', { cookie: alice.cookie, body: {} });
  expect(created.status).toBe(201);
  const id = created.body.conversation.id as string;
  vendor.reply({ kind: 'slow', delayMs: 60_000 });
  const turn = await call('POST', `/api/v1/assistant/conversations/${id}/turns`, { cookie: alice.cookie, body: { content: 'Take your time' } });
  expect(turn.status).toBe(202);
  return { id, messageId: turn.body.messageId as string };
}

describe('sweepInterruptedTurns', () => {
  it('fails a turn not heard from for longer than the limit, keeping its text; fresh and finished turns are left alone', async () => {
    const stale = await leftRunning(minutesAgo(10), 'Here is the start of');
    const fresh = await leftRunning(minutesAgo(0.5));
    const idle = await db().assistantConversation.create({ data: { memberId: alice.id, title: 'Idle', status: 'idle', updatedAt: minutesAgo(60) } });

    expect(await sweepInterruptedTurns()).toBe(1);

    const after = await read(stale.conversationId);
    expect(after.conversation.status).toBe('failed');
    expect(after.messages[1]).toMatchObject({ id: stale.messageId, status: 'failed', content: 'Here is the start of', error: interruptedError });
    expect(after.messages[0]).toMatchObject({ role: 'user', status: 'done' });
    expect((await read(fresh.conversationId)).conversation.status).toBe('running');
    expect((await db().assistantConversation.findUniqueOrThrow({ where: { id: idle.id } })).status).toBe('idle');
    // Nothing left to do; a new turn may start on the failed conversation.
    expect(await sweepInterruptedTurns()).toBe(0);
  });

  it('counts the limit from the last write of the message, not from the turn’s start', async () => {
    const turn = await leftRunning(minutesAgo(30));
    await db().$executeRaw`UPDATE assistant_messages SET updated_at = ${minutesAgo(1)} WHERE id = ${turn.messageId}::uuid`;
    expect(await sweepInterruptedTurns()).toBe(0);
    // Past the limit from that write.
    expect(await sweepInterruptedTurns(new Date(Date.now() + turnStaleAfterMs))).toBe(1);
    expect((await read(turn.conversationId)).conversation.status).toBe('failed');
  });

  it('settles a running conversation whose message was already finished', async () => {
    const turn = await leftRunning(minutesAgo(10));
    await db().$executeRaw`UPDATE assistant_messages SET status = 'done' WHERE id = ${turn.messageId}::uuid`;
    expect(await sweepInterruptedTurns()).toBe(1);
    const after = await read(turn.conversationId);
    expect(after.conversation.status).toBe('failed');
    expect(after.messages[1].status).toBe('done');
  });

  it('never touches a live turn: its heartbeat keeps the message written while the model is silent', async () => {
    assistantTestHooks.heartbeatMs = 30;
    const { id, messageId } = await startSlowTurn();
    const first = await db().assistantMessage.findUniqueOrThrow({ where: { id: messageId } });
    let latest = first;
    for (let tries = 0; tries < 300 && latest.updatedAt.getTime() === first.updatedAt.getTime(); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      latest = await db().assistantMessage.findUniqueOrThrow({ where: { id: messageId } });
    }
    expect(latest.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
    expect(latest.status).toBe('streaming');
    // The conversation row itself is old, the message is not: alive.
    await db().$executeRaw`UPDATE assistant_conversations SET updated_at = ${minutesAgo(10)} WHERE id = ${id}::uuid`;
    expect(await sweepInterruptedTurns()).toBe(0);
    expect((await read(id)).conversation.status).toBe('running');
  });
});

describe('interruptTurns (a web process stopping)', () => {
  it('settles this process’s running turns as interrupted at once', async () => {
    const { id, messageId } = await startSlowTurn();
    expect(await interruptTurns()).toBe(1);
    const after = await read(id);
    expect(after.conversation.status).toBe('failed');
    expect(after.messages[1]).toMatchObject({ id: messageId, status: 'failed', error: interruptedError });
    expect(await interruptTurns()).toBe(0);
  });
});
