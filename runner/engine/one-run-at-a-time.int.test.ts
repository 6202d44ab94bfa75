/**
 * One run at a time per key and burst coalescing (issue 24 §3) across two real runner processes
 * (runner/main.ts: the mail supervisor syncing a real Dovecot mailbox, the dispatcher, the engine) that
 * are SIGKILLed while mail keeps arriving. Four conversations, chained by In-Reply-To and References as
 * mail clients write them, from three senders (one writes two of them), arrive in waves. Two workflows
 * watch the mailbox: one runs one at a time per conversation, the other per sender with a burst window.
 *
 * Afterwards: every message journaled once; the conversation workflow has one run per message, each
 * conversation's runs one after the other in the order its messages arrived; the sender workflow's runs
 * carry every message exactly once (alone or in a burst), each sender's runs one after the other, the
 * batches in arrival order. Every run succeeded. No timed assertions: the waits are deadlines for
 * progress, the checks are on the end state.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runnerProcesses } from '../testing/runner-processes';
import { waitFor as waitForProgress } from '../testing/wait-for';
import { db } from '../../server/core/db';
import type { GraphInput } from '../../server/engine/contract/graph';
import type { OneRunAtATime } from '../../server/engine/contract/one-run-at-a-time';
import { createMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { appendMessage, buildRawMessage } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '../../server/testing/mail-servers/dovecot';
import { useTestDatabase } from '../../server/testing/test-database';
import { createWorkflow } from '../../server/testing/workflow-factories';

const databaseUrl = await useTestDatabase();
const user = { user: `support-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };

let dovecot: DovecotServer;
const runners = runnerProcesses({ DATABASE_URL: databaseUrl, MAIL_ALLOW_PRIVATE_HOSTS: '1' });

beforeAll(async () => {
  dovecot = await startDovecot({ users: [user] });
}, 60_000);

afterAll(async () => {
  runners.killAll();
  await dovecot?.stop();
});

/** Generous: two runners, Dovecot and kills on a shared machine. */
const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false>) => waitForProgress(what, probe, { timeoutMs: 180_000, everyMs: 200 });

/** Mail → a step → a 1 s wait (the run holds its key, not a slot) → a step that reads the batch. */
function graph(mailboxId: string): GraphInput {
  return {
    nodes: [
      { id: 'mail', type: 'trigger.mail', version: 1, name: 'A customer writes', params: { mailboxIds: [mailboxId] } },
      { id: 'read', type: 'data.set', version: 1, name: 'Read', params: { fields: [{ name: 'subject', value: '{{ trigger.subject }}' }] } },
      { id: 'wait', type: 'flow.wait', version: 1, name: 'Think', params: { mode: 'duration', amount: 1, unit: 'seconds' } },
      { id: 'answer', type: 'data.set', version: 1, name: 'Answer', params: { fields: [{ name: 'carried', value: '{{ trigger.batch ? $count(trigger.batch) : 1 }}' }] } },
    ],
    connections: [
      { from: 'mail', output: 'main', to: 'read' },
      { from: 'read', output: 'main', to: 'wait' },
      { from: 'wait', output: 'main', to: 'answer' },
    ],
  };
}

interface Conversation {
  from: string;
  topic: string;
  /** Message-IDs written so far, oldest first (References of the next message). */
  ids: string[];
}

it('under two runners and SIGKILLs, runs of one conversation or one sender never overlap, keep arrival order, and carry every message exactly once', async () => {
  const member = await createMember();
  const mailbox = await createImapMailbox(member, dovecot, user);
  const byThread = await createWorkflow(member, { name: 'Answer each conversation', graph: graph(mailbox.id) });
  const bySender = await createWorkflow(member, { name: 'Answer each customer', graph: graph(mailbox.id) });
  const settings = async (workflowId: string, oneRunAtATime: OneRunAtATime) => db().workflow.update({ where: { id: workflowId }, data: { settings: { oneRunAtATime } as object } });
  await settings(byThread.workflow.id, { by: 'thread', expression: null, coalesceSeconds: 0 });
  await settings(bySender.workflow.id, { by: 'sender', expression: null, coalesceSeconds: 2 });

  const conversations: Conversation[] = [
    { from: 'Ana Pereira <ana@client-a.test>', topic: 'Delivery of order 1042', ids: [] },
    { from: 'Bruno Costa <bruno@client-b.test>', topic: 'Invoice INV-2211 is wrong', ids: [] },
    { from: 'Chloé Martin <chloe@client-c.test>', topic: 'Meeting next week', ids: [] },
    { from: 'Ana Pereira <ana@client-a.test>', topic: 'Returns policy', ids: [] },
  ];
  const delivered: string[] = [];
  /** The next message of each conversation, as a mail client answers: Re:, In-Reply-To, References. */
  async function wave(round: number) {
    for (const conversation of conversations) {
      const messageId = `<${randomUUID()}@${conversation.from.split('@')[1]!.replace('>', '')}>`;
      const last = conversation.ids.at(-1);
      const raw = await buildRawMessage({
        from: conversation.from,
        to: user.user,
        subject: `${round === 0 ? '' : 'Re: '}${conversation.topic}`,
        text: `Message ${round + 1} about ${conversation.topic.toLowerCase()}.\n\nRegards`,
        messageId,
        ...(last ? { inReplyTo: last, references: conversation.ids } : {}),
      });
      conversation.ids.push(messageId);
      delivered.push(messageId);
      await appendMessage({ server: dovecot, ...user, folder: 'INBOX', raw });
    }
  }
  const journaled = async () => db().mailJournalEntry.count({ where: { mailboxId: mailbox.id } });
  const allJournaled = (count: number) => waitFor(`${count} messages journaled`, async () => (await journaled()) >= count);
  const finished = (workflowId: string, count: number) =>
    waitFor(`${count} runs ended`, async () => (await db().execution.count({ where: { workflowId, status: { in: ['succeeded', 'failed', 'cancelled'] } } })) >= count);

  const first = runners.start();
  const second = runners.start();
  await waitFor('the first sync', async () => (await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).initialSyncDoneAt !== null);

  // Each wave is journaled before the next arrives: a conversation's messages arrive in a known order.
  await wave(0);
  await allJournaled(4);
  await finished(byThread.workflow.id, 1);
  await runners.kill(first); // kill 1, runs in flight
  await wave(1);
  await allJournaled(8);
  runners.start(); // a fresh runner beside the second
  await wave(2);
  await allJournaled(12);
  await runners.kill(second); // kill 2
  await wave(3);
  await allJournaled(16);
  await finished(byThread.workflow.id, 16);

  const messages = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id }, select: { id: true, messageIdHeader: true, threadId: true, fromEmail: true } });
  const byHeader = new Map(messages.map((message) => [message.messageIdHeader!, message]));
  const arrival = delivered.map((header) => byHeader.get(header)!);
  expect(arrival.every(Boolean)).toBe(true);
  const entries = await db().mailJournalEntry.findMany({ where: { mailboxId: mailbox.id } });
  expect(entries).toHaveLength(16);
  expect(entries.every((entry) => entry.outcome === 'dispatched')).toBe(true);

  // Per conversation: one run per message, one after the other, in the order the messages arrived.
  const threadRuns = await db().execution.findMany({ where: { workflowId: byThread.workflow.id }, orderBy: { seq: 'asc' } });
  expect(threadRuns).toHaveLength(16);
  expect(new Set(threadRuns.map((run) => run.messageId)).size).toBe(16);
  expect(threadRuns.filter((run) => run.status !== 'succeeded').map((run) => [run.status, run.error])).toEqual([]);
  for (const conversation of conversations) {
    const ids = conversation.ids.map((header) => byHeader.get(header)!.id);
    const runs = threadRuns.filter((run) => ids.includes(run.messageId!));
    expect(runs.map((run) => run.messageId)).toEqual(ids);
    expect(new Set(runs.map((run) => run.serialKey))).toEqual(new Set([`thread:${byHeader.get(conversation.ids[0]!)!.threadId}`]));
    for (let index = 1; index < runs.length; index += 1) expect(runs[index]!.startedAt!.getTime()).toBeGreaterThanOrEqual(runs[index - 1]!.finishedAt!.getTime());
  }

  // Per sender: every message in exactly one run, runs one after the other, batches in arrival order.
  await waitFor('the sender workflow’s runs ended', async () => {
    const carried = await db().executionBatchMessage.count({ where: { execution: { workflowId: bySender.workflow.id } } });
    const open = await db().execution.count({ where: { workflowId: bySender.workflow.id, status: { in: ['queued', 'running', 'waiting'] } } });
    return carried === 16 && open === 0;
  });
  const senderRuns = await db().execution.findMany({
    where: { workflowId: bySender.workflow.id },
    orderBy: { seq: 'asc' },
    include: { batchMessages: { orderBy: { position: 'asc' } } },
  });
  expect(senderRuns.filter((run) => run.status !== 'succeeded').map((run) => [run.status, run.error])).toEqual([]);
  const carried = senderRuns.flatMap((run) => run.batchMessages.map((item) => item.messageId));
  expect(carried.sort()).toEqual(arrival.map((message) => message.id).sort());
  for (const sender of ['ana@client-a.test', 'bruno@client-b.test', 'chloe@client-c.test']) {
    const runs = senderRuns.filter((run) => run.serialKey === `sender:${sender}`);
    expect(runs.flatMap((run) => run.batchMessages.map((item) => item.messageId))).toEqual(arrival.filter((message) => message.fromEmail === sender).map((message) => message.id));
    for (const run of runs) expect((run.triggerData as { batch: { id: string }[] }).batch.map((item) => item.id)).toEqual(run.batchMessages.map((item) => item.messageId));
    for (let index = 1; index < runs.length; index += 1) expect(runs[index]!.startedAt!.getTime()).toBeGreaterThanOrEqual(runs[index - 1]!.finishedAt!.getTime());
  }
  // Ana wrote two conversations in each wave: a burst joined them at least once.
  expect(senderRuns.some((run) => run.batchMessages.length > 1)).toBe(true);
  runners.killAll();
}, 600_000);
