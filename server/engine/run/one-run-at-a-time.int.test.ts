/**
 * One run at a time per key (issue 24 §3) on the real engine (a graphile-worker with the advance task
 * and the sweeper) and the real dispatcher: runs of one conversation, sender or expression value go one
 * after the other in arrival order, the key held while a run waits, while runs of other keys go on; a
 * cancelled run hands its key on; bursts of mail of one key join one run (`trigger.batch`), which the
 * messages journal shows for each of them. The same under two runners and SIGKILLs, with real mail:
 * runner/engine/one-run-at-a-time.int.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { createWorkflow } from '../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../runner/engine/testing/engine-worker';
import type { GraphInput } from '../contract/graph';
import type { OneRunAtATime } from '../contract/one-run-at-a-time';
import { dispatchNewMail } from '../dispatch/dispatch-mail';
import { receiveWebhook } from '../dispatch/webhook';
import { cancelExecutions } from './cancel';

await useEngineWorker({ concurrency: 8 });
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});

/** trigger → a wait of `seconds` (the run holds its key while it waits, without a slot) → a step after it. */
function waitingGraph(trigger: NonNullable<GraphInput['nodes']>[number], seconds = 2): GraphInput {
  return {
    nodes: [
      trigger,
      { id: 'wait', type: 'flow.wait', version: 1, name: 'Wait', params: { mode: 'duration', amount: seconds, unit: 'seconds' } },
      { id: 'count', type: 'data.set', version: 1, name: 'Count', params: { fields: [{ name: 'batch', value: '{{ $count(trigger.batch) }}' }] } },
    ],
    connections: [
      { from: trigger.id, output: 'main', to: 'wait' },
      { from: 'wait', output: 'main', to: 'count' },
    ],
  };
}

async function mailWorkflow(setting: OneRunAtATime | null, seconds = 2) {
  const mailbox = await createMailbox(member);
  const { workflow } = await createWorkflow(member, {
    name: 'Answer customers',
    graph: waitingGraph({ id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params: { mailboxIds: [mailbox.id] } }, seconds),
  });
  await db().workflow.update({ where: { id: workflow.id }, data: { settings: { oneRunAtATime: setting } as object } });
  /** A message (in `threadId`'s conversation when given) queued as new mail and dispatched at once. */
  async function arrives(options: { threadId?: string; fromEmail?: string; subject?: string; bodyText?: string } = {}) {
    const message = await createMessage(mailbox, { subject: options.subject ?? 'About my order', fromEmail: options.fromEmail ?? 'ana@client.test', threadId: options.threadId, bodyText: options.bodyText });
    await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: mailbox.id } });
    await dispatchNewMail(mailbox.id);
    return message;
  }
  return { mailbox, workflow, arrives };
}

const runOf = (workflowId: string, messageId: string) => db().execution.findFirstOrThrow({ where: { workflowId, messageId } });
const statusOf = async (id: string) => (await db().execution.findUniqueOrThrow({ where: { id } })).status;

/** Every run ended; then, per key, each began after the one before it (arrival order) had ended. */
async function expectOneAtATime(runIds: string[]) {
  const runs = [];
  for (const id of runIds) runs.push(await waitForExecution(id, { timeoutMs: 60_000 }));
  for (const run of runs) expect(run.status).toBe('succeeded');
  const byKey = new Map<string, typeof runs>();
  for (const run of [...runs].sort((a, b) => Number(a.seq - b.seq))) byKey.set(run.serialKey!, [...(byKey.get(run.serialKey!) ?? []), run]);
  for (const keyed of byKey.values()) {
    for (let index = 1; index < keyed.length; index += 1) expect(keyed[index]!.startedAt!.getTime()).toBeGreaterThanOrEqual(keyed[index - 1]!.finishedAt!.getTime());
  }
  return runs;
}

describe('runs that share a key run one at a time, in arrival order', () => {
  it('by thread: the second message of a conversation waits for the first run, which keeps its key while it waits; another conversation goes on', async () => {
    const { workflow, arrives } = await mailWorkflow({ by: 'thread', expression: null, coalesceSeconds: 0 });
    const first = await arrives({ subject: 'Order 1042' });
    const second = await arrives({ subject: 'Re: Order 1042', threadId: first.threadId! });
    const other = await arrives({ subject: 'Invoice question' });
    const [firstRun, secondRun, otherRun] = [await runOf(workflow.id, first.id), await runOf(workflow.id, second.id), await runOf(workflow.id, other.id)];
    expect(firstRun.serialKey).toBe(`thread:${first.threadId}`);
    expect(secondRun.serialKey).toBe(firstRun.serialKey);
    expect(otherRun.serialKey).toBe(`thread:${other.threadId}`);

    // The first run waits (its slot given back, its key kept): the second stays queued, the other conversation's run waits too.
    await waitForExecution(firstRun.id, { statuses: ['waiting'] });
    await waitForExecution(otherRun.id, { statuses: ['waiting'] });
    expect(await statusOf(secondRun.id)).toBe('queued');

    const [, second2, other2] = await expectOneAtATime([firstRun.id, secondRun.id, otherRun.id]);
    const first2 = await db().execution.findUniqueOrThrow({ where: { id: firstRun.id } });
    // The other conversation did not wait for the first one.
    expect(other2!.startedAt!.getTime()).toBeLessThan(first2.finishedAt!.getTime());
    expect(second2!.startedAt!.getTime()).toBeGreaterThanOrEqual(first2.finishedAt!.getTime());
  });

  it('by sender: two conversations of one sender run one after the other, whatever the case of the address', async () => {
    const { workflow, arrives } = await mailWorkflow({ by: 'sender', expression: null, coalesceSeconds: 0 }, 1);
    const messages = [await arrives({ fromEmail: 'Bob@Client.test' }), await arrives({ fromEmail: 'bob@client.test' }), await arrives({ fromEmail: 'carl@client.test' })];
    const runs = await Promise.all(messages.map((message) => runOf(workflow.id, message.id)));
    expect(runs.map((run) => run.serialKey)).toEqual(['sender:bob@client.test', 'sender:bob@client.test', 'sender:carl@client.test']);
    await expectOneAtATime(runs.map((run) => run.id));
  });

  it('without the setting, runs of one conversation run side by side (no key)', async () => {
    const { workflow, arrives } = await mailWorkflow(null);
    const first = await arrives();
    const second = await arrives({ threadId: first.threadId! });
    const runs = [await runOf(workflow.id, first.id), await runOf(workflow.id, second.id)];
    expect(runs.map((run) => run.serialKey)).toEqual([null, null]);
    for (const run of runs) await waitForExecution(run.id, { statuses: ['waiting'] });
  });

  it('a cancelled run hands its key to the next run of it', async () => {
    const { workflow, arrives } = await mailWorkflow({ by: 'thread', expression: null, coalesceSeconds: 0 }, 60);
    const first = await arrives();
    const second = await arrives({ threadId: first.threadId! });
    const [firstRun, secondRun] = [await runOf(workflow.id, first.id), await runOf(workflow.id, second.id)];
    await waitForExecution(firstRun.id, { statuses: ['waiting'] });
    expect(await statusOf(secondRun.id)).toBe('queued');
    await cancelExecutions(member.id, [firstRun.id]);
    await waitForExecution(secondRun.id, { statuses: ['waiting'] });
    await cancelExecutions(member.id, [secondRun.id]);
  });

  it('by expression on a webhook: bodies with the same order number run one at a time, another order goes on; a body without one is not held', async () => {
    const { workflow } = await createWorkflow(member, { graph: waitingGraph({ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} }, 1) });
    await db().workflow.update({ where: { id: workflow.id }, data: { settings: { oneRunAtATime: { by: 'expression', expression: '{{ trigger.order.id }}', coalesceSeconds: 0 } } } });
    const { body } = await call('POST', `/api/v1/workflows/${workflow.id}/webhook`, { cookie: member.cookie });
    const token = body.token as string;
    const post = (data: unknown) => receiveWebhook({ token, rawBody: Buffer.from(JSON.stringify(data)), signature: null, timestamp: null, idempotencyKey: null });
    const ids = [];
    for (const data of [{ order: { id: 7 } }, { order: { id: 7 } }, { order: { id: 8 } }, { note: 'no order' }]) ids.push((await post(data)).executionId);
    const runs = await db().execution.findMany({ where: { id: { in: ids } }, orderBy: { seq: 'asc' } });
    expect(runs.map((run) => run.serialKey)).toEqual(['expr:7', 'expr:7', 'expr:8', null]);
    await expectOneAtATime(ids.slice(0, 3));
    expect((await waitForExecution(ids[3]!)).status).toBe('succeeded');
  });
});

describe('burst coalescing', () => {
  it('mail of one sender within the window joins one run (trigger.batch, in arrival order); the journal shows the run for each message; later mail starts the next run', async () => {
    const { workflow, arrives } = await mailWorkflow({ by: 'sender', expression: null, coalesceSeconds: 3 }, 1);
    const burst = [await arrives({ subject: 'Part 1' }), await arrives({ subject: 'Part 2' }), await arrives({ subject: 'Part 3' })];
    const runs = await db().execution.findMany({ where: { workflowId: workflow.id } });
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.messageId).toBe(burst[0]!.id);
    expect(run.status).toBe('queued');

    const ended = await waitForExecution(run.id, { timeoutMs: 30_000 });
    expect(ended.status).toBe('succeeded');
    const trigger = ended.triggerData as { subject: string; batch: { messageId: string; subject: string }[] };
    expect(trigger.subject).toBe('Part 1');
    expect(trigger.batch.map((item) => item.subject)).toEqual(['Part 1', 'Part 2', 'Part 3']);
    expect(ended.steps.find((step) => step.nodeId === 'count')?.data).toMatchObject({ batch: 3 });
    // Not admitted before the window closed.
    expect(ended.startedAt!.getTime()).toBeGreaterThanOrEqual(ended.coalesceUntil!.getTime());

    for (const message of burst) {
      const { status, body } = await call('GET', `/api/v1/messages/${message.id}/journal`, { cookie: member.cookie });
      expect(status).toBe(200);
      expect(body.entry.outcome).toBe('dispatched');
      expect(body.executions.map((execution: { id: string }) => execution.id)).toEqual([run.id]);
    }

    const later = await arrives({ subject: 'Part 4' });
    const next = await runOf(workflow.id, later.id);
    expect(next.id).not.toBe(run.id);
    expect((await waitForExecution(next.id, { timeoutMs: 30_000 })).triggerData).toMatchObject({ subject: 'Part 4', batch: [{ subject: 'Part 4' }] });
  });

  it('a burst carries at most 512 KB of trigger data: long mails close it sooner', async () => {
    const { workflow, arrives } = await mailWorkflow({ by: 'sender', expression: null, coalesceSeconds: 30 }, 1);
    // Each message's text is 60 KB: eight fit in 512 KB with the first one's copy, not nine.
    for (let index = 0; index < 10; index += 1) await arrives({ subject: `Long ${index + 1}`, bodyText: `${index} `.padEnd(60_000, 'x') });
    const runs = await db().execution.findMany({ where: { workflowId: workflow.id }, orderBy: { seq: 'asc' }, include: { batchMessages: true } });
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) expect(Buffer.byteLength(JSON.stringify(run.triggerData))).toBeLessThanOrEqual(512 * 1024);
    expect(runs.flatMap((run) => run.batchMessages).length).toBe(10);
    await cancelExecutions(member.id, runs.map((run) => run.id));
  });

  it('a burst carries at most 20 messages: the 21st starts the next run, which waits for the first', async () => {
    const { workflow, arrives } = await mailWorkflow({ by: 'sender', expression: null, coalesceSeconds: 30 }, 1);
    for (let index = 0; index < 21; index += 1) await arrives({ subject: `Line ${index + 1}` });
    const runs = await db().execution.findMany({ where: { workflowId: workflow.id }, orderBy: { seq: 'asc' }, include: { batchMessages: true } });
    expect(runs.map((run) => run.batchMessages.length)).toEqual([20, 1]);
    expect((runs[1]!.triggerData as { subject: string }).subject).toBe('Line 21');
    await cancelExecutions(member.id, runs.map((run) => run.id));
  });
});
