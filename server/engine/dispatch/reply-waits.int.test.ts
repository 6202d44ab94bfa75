/**
 * Waiting for a reply on the real engine (a graphile-worker with the advance task and the sweeper):
 * trigger.mail → flow.wait_for_reply → replied / timeout. Mail goes through the real mirror writer
 * (parsed as ingest parses it: signals from the headers, threads from Message-ID and In-Reply-To) and
 * the real dispatcher, which wakes the run in the transaction that journals the reply. The run waits
 * without a slot until then; an auto-reply, the mailbox's own message and an excluded sender do not end
 * the wait; a reply mirrored before the wait began ends it at once; the deadline takes the timeout port;
 * a cancel drops the registration.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { listedHeaderNames } from '../../mail/ingest/ingest';
import { createMirrorSink } from '../../mail/mirror/writer';
import type { IncomingMessage } from '../../mail/provider';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { buildRawMessage, type RawMessageFields } from '../../testing/mail-servers/deliver';
import { createWorkflow } from '../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../runner/engine/testing/engine-worker';
import type { GraphInput } from '../contract/graph';
import { deadlineAfter } from '../nodes/flow/business-time';
import { waitForReplyNode } from '../nodes/flow/wait-for-reply.node';
import { cancelExecutions } from '../run/cancel';
import { replayExecution } from '../run/replay';
import { startExecution } from '../run/start';
import { dispatchNewMail, mailTriggerDataOf } from './dispatch-mail';
import { call } from '../../testing/rest-client';

await useEngineWorker();
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});

const anne = 'Anne Client <anne@client.test>';

function graph(mailboxId: string, wait: Record<string, unknown> = { amount: 3, unit: 'days' }, failingBranch = false): GraphInput {
  const failing: NonNullable<GraphInput['nodes']> = failingBranch
    ? [
        { id: 'pause', type: 'flow.wait', version: 1, name: 'Pause', params: { mode: 'duration', amount: 3, unit: 'seconds' } },
        { id: 'broken', type: 'data.set', version: 1, name: 'Broken', params: { fields: [{ name: 'x', value: '{{ $notAFunction() }}' }] } },
      ]
    : [];
  return {
    nodes: [
      { id: 'mail', type: 'trigger.mail', version: 1, name: 'A client writes', params: { mailboxIds: [mailboxId] } },
      { id: 'wait', type: 'flow.wait_for_reply', version: 1, name: 'Wait for a reply', params: wait },
      { id: 'answered', type: 'data.set', version: 1, name: 'Answered', params: { fields: [{ name: 'from', value: '{{ nodes.wait.reply.from.email }}' }] } },
      { id: 'silent', type: 'data.set', version: 1, name: 'Silent', params: { fields: [{ name: 'branch', value: 'timeout' }] } },
      ...failing,
    ],
    connections: [
      { from: 'mail', output: 'main', to: 'wait' },
      { from: 'wait', output: 'replied', to: 'answered' },
      { from: 'wait', output: 'timeout', to: 'silent' },
      ...(failingBranch
        ? [
            { from: 'mail', output: 'main', to: 'pause' },
            { from: 'pause', output: 'main', to: 'broken' },
          ]
        : []),
    ],
  };
}

/** A mailbox with its own workflow (trigger → wait for a reply), and a way to deliver mail into its mirror as new mail. */
async function setUp(wait?: Record<string, unknown>, options: { failingBranch?: boolean } = {}) {
  const mailbox = await createMailbox(member, { address: `sales-${randomUUID().slice(0, 6)}@shop.test` });
  const { workflow } = await createWorkflow(member, { name: 'Follow-up', graph: graph(mailbox.id, wait, options.failingBranch) });
  const sink = createMirrorSink({ id: mailbox.id, memberId: member.id, address: mailbox.address, syncMode: 'full' });
  let uid = 0n;
  async function deliver(fields: Omit<RawMessageFields, 'to'> & { to?: string }, folder: 'INBOX' | 'Sent' = 'INBOX') {
    uid += 1n;
    const messageId = fields.messageId ?? `<${randomUUID()}@mail.test>`;
    const source = await buildRawMessage({ to: mailbox.address, ...fields, messageId });
    await sink.commit({
      ingestedVia: 'delta',
      messages: [
        {
          providerKey: `${folder}\n1\n${uid}`,
          folderKey: folder,
          labels: [],
          uid,
          uidValidity: 1n,
          modseq: null,
          flags: { seen: folder === 'Sent', flagged: false, draft: false, sent: folder === 'Sent' },
          internalDate: fields.date ?? new Date(),
          size: source.length,
          source,
          sourceComplete: true,
        },
      ],
      flagUpdates: [],
      removedProviderKeys: [],
      cursors: [],
    });
    const row = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, messageIdHeader: messageId }, select: { id: true, threadId: true } });
    return { ...row, messageId };
  }
  /**
   * A message of a large initial sync's listing: only the header lines a list shows (as IMAP's headers-first
   * listing fetches them), no signals, pending for the body pass; `fill()` is that pass's turn for it.
   */
  async function list(fields: Omit<RawMessageFields, 'to'> & { to?: string }) {
    uid += 1n;
    const messageId = fields.messageId ?? `<${randomUUID()}@mail.test>`;
    const source = await buildRawMessage({ to: mailbox.address, ...fields, messageId });
    const listed = new Set(listedHeaderNames.map((name) => name.toLowerCase()));
    const header = source.subarray(0, source.indexOf('\r\n\r\n') + 2).toString('latin1');
    const lines = header.split(/\r\n(?![ \t])/).filter((line) => listed.has(line.slice(0, line.indexOf(':')).trim().toLowerCase()));
    const incoming: IncomingMessage = {
      providerKey: `INBOX\n1\n${uid}`,
      folderKey: 'INBOX',
      labels: [],
      uid,
      uidValidity: 1n,
      modseq: null,
      flags: { seen: false, flagged: false, draft: false, sent: false },
      internalDate: fields.date ?? new Date(),
      size: source.length,
      source: Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
      sourceComplete: false,
      bodyDeferred: true,
    };
    await sink.commit({ ingestedVia: 'initial', messages: [incoming], flagUpdates: [], removedProviderKeys: [], cursors: [] });
    const row = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, messageIdHeader: messageId }, select: { id: true, threadId: true, bodyPending: true } });
    expect(row.bodyPending).toBe(true);
    const fill = () => sink.fillBodies({ messages: [{ messageId: row.id, incoming: { ...incoming, source, sourceComplete: true, bodyDeferred: false } }], missing: [] });
    return { ...row, messageId, fill };
  }
  /** The client's first message, dispatched: the run starts and waits. */
  async function firstMessage() {
    const first = await deliver({ from: anne, subject: 'Quote for 40 chairs', text: 'Could you send a quote?', date: new Date(Date.now() - 60_000) });
    expect(await dispatchNewMail(mailbox.id)).toBe(1);
    const run = await db().execution.findFirstOrThrow({ where: { workflowId: workflow.id, messageId: first.id } });
    return { first, run };
  }
  return { mailbox, workflow, deliver, list, firstMessage };
}

const waitsOf = (executionId: string) => db().executionReplyWait.findMany({ where: { executionId } });

async function waiting(executionId: string) {
  const run = await waitForExecution(executionId, { statuses: ['waiting', 'failed', 'succeeded'] });
  expect(run.error).toBeNull();
  expect(run.status).toBe('waiting');
  return run;
}

describe('flow.wait_for_reply in a run', () => {
  it('waits without a slot until the deadline, registered for the thread; a reply from the client ends it on the replied port with the reply', async () => {
    const { first, run, deliver, mailbox } = await (async () => {
      const context = await setUp();
      return { ...context, ...(await context.firstMessage()) };
    })();
    const held = await waiting(run.id);
    expect(held.holdsSlot).toBe(true);
    const step = held.steps.find((candidate) => candidate.nodeId === 'wait')!;
    expect(step.status).toBe('waiting');
    const state = (step.state as { node: { deadline: string; waitedFrom: string } }).node;
    expect(held.waitUntil?.toISOString()).toBe(state.deadline);
    expect(Date.parse(state.deadline) - Date.parse(state.waitedFrom)).toBe(3 * 86_400_000);
    expect(await waitsOf(run.id)).toEqual([expect.objectContaining({ nodeId: 'wait', mailboxId: mailbox.id, threadId: first.threadId, anchorMessageId: first.id, anchorHeader: first.messageId })]);
    // Nothing about the run's slot: a waiting run is not running.
    expect(await db().execution.count({ where: { workflowId: run.workflowId, status: 'running' } })).toBe(0);

    const reply = await deliver({ from: anne, subject: 'Re: Quote for 40 chairs', text: 'Yes, 40 chairs, delivered in March.', inReplyTo: first.messageId, references: first.messageId });
    expect(reply.threadId).toBe(first.threadId);
    expect(await dispatchNewMail(mailbox.id)).toBe(1);
    // Woken in the journal's transaction: the registration is gone, the reply is on the step.
    expect(await waitsOf(run.id)).toEqual([]);
    expect(await db().mailJournalEntry.findUnique({ where: { messageId: reply.id } })).not.toBeNull();

    const done = await waitForExecution(run.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    const byNode = Object.fromEntries(done.steps.map((candidate) => [candidate.nodeId, candidate]));
    expect(byNode.wait).toMatchObject({ status: 'succeeded', output: 'replied' });
    expect(byNode.wait.data).toMatchObject({
      replied: true,
      messageId: first.id,
      reply: { id: reply.id, threadId: first.threadId, from: { name: 'Anne Client', email: 'anne@client.test' }, subject: 'Re: Quote for 40 chairs', text: expect.stringContaining('Yes, 40 chairs, delivered in March.'), isAutoReply: false },
    });
    // The node's declared output (what the builder completes without a run) is the step's exact shape.
    expect(waitForReplyNode.output!.safeParse(byNode.wait.data).success).toBe(true);
    expect(byNode.answered).toMatchObject({ status: 'succeeded', data: { from: 'anne@client.test' } });
    expect(byNode.silent.status).toBe('skipped');
  });

  it('an auto-reply and the mailbox’s own message do not end the wait; the client’s reply then does', async () => {
    const context = await setUp();
    const { first, run } = await context.firstMessage();
    await waiting(run.id);
    const outOfOffice = await context.deliver({
      from: anne,
      subject: 'Automatic reply: Quote for 40 chairs',
      text: 'I am out of the office until Monday.',
      inReplyTo: first.messageId,
      references: first.messageId,
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    const ours = await context.deliver(
      { from: `Shop <${context.mailbox.address}>`, to: 'anne@client.test', subject: 'Re: Quote for 40 chairs', text: 'Here is our quote.', inReplyTo: first.messageId, references: first.messageId },
      'Sent',
    );
    expect([outOfOffice.threadId, ours.threadId]).toEqual([first.threadId, first.threadId]);
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: outOfOffice.id }, select: { isAutoReply: true } })).toEqual({ isAutoReply: true });
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: ours.id }, select: { isFromSelf: true } })).toEqual({ isFromSelf: true });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(2);
    // Still waiting, still registered.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('waiting');
    expect(await waitsOf(run.id)).toHaveLength(1);

    const reply = await context.deliver({ from: anne, subject: 'Re: Quote for 40 chairs', text: 'Thanks, ordered.', inReplyTo: ours.messageId, references: [first.messageId, ours.messageId] });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    const done = await waitForExecution(run.id);
    expect(done.steps.find((step) => step.nodeId === 'wait')).toMatchObject({ output: 'replied', data: { reply: { id: reply.id } } });
  });

  it('a sender the member excluded does not end the wait', async () => {
    const context = await setUp();
    const { first, run } = await context.firstMessage();
    await waiting(run.id);
    await db().senderExclusion.create({ data: { memberId: member.id, kind: 'address', value: 'lawyer@firm.test' } });
    await context.deliver({ from: 'lawyer@firm.test', subject: 'Re: Quote for 40 chairs', text: 'Privileged.', inReplyTo: first.messageId, references: first.messageId });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('waiting');
    expect(await waitsOf(run.id)).toHaveLength(1);
    await cancelExecutions(member.id, [run.id]);
  });

  it('a reply mirrored before the wait began ends it at once', async () => {
    const context = await setUp();
    const first = await context.deliver({ from: anne, subject: 'Delivery date?', text: 'When?', date: new Date(Date.now() - 120_000) });
    // The reply is mirrored (not yet dispatched) before the run reaches its wait.
    const reply = await context.deliver({ from: anne, subject: 'Re: Delivery date?', text: 'Never mind, found it.', inReplyTo: first.messageId, references: first.messageId });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(2);
    const run = await db().execution.findFirstOrThrow({ where: { workflowId: context.workflow.id, messageId: first.id } });
    const done = await waitForExecution(run.id);
    expect(done.error).toBeNull();
    expect(done.steps.find((step) => step.nodeId === 'wait')).toMatchObject({ output: 'replied', data: { replied: true, reply: { id: reply.id } } });
    expect(await waitsOf(run.id)).toEqual([]);
  });

  it('a reply still listed from its header (no signals yet) is left to the body pass: a filled auto-reply wakes nothing, a filled reply from the client wakes the wait', async () => {
    const context = await setUp();
    const first = await context.deliver({ from: anne, subject: 'Invoice 2291', text: 'Please find the invoice attached.', date: new Date(Date.now() - 120_000) });
    // A resync lists the thread's later mail from its headers: the out-of-office first, then the client's answer.
    const outOfOffice = await context.list({
      from: anne,
      subject: 'Automatic reply: Invoice 2291',
      text: 'I am out of the office until Monday.',
      inReplyTo: first.messageId,
      references: first.messageId,
      headers: { 'Auto-Submitted': 'auto-replied', 'X-Autoreply': 'yes' },
      date: new Date(Date.now() - 60_000),
    });
    const answer = await context.list({ from: anne, subject: 'Re: Invoice 2291', text: 'Paid this morning, reference 77-A.', inReplyTo: first.messageId, references: first.messageId });
    expect([outOfOffice.threadId, answer.threadId]).toEqual([first.threadId, first.threadId]);
    // The run reaches its wait with both rows still pending: neither is taken for a reply.
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    const run = await db().execution.findFirstOrThrow({ where: { workflowId: context.workflow.id, messageId: first.id } });
    await waiting(run.id);
    expect(await waitsOf(run.id)).toHaveLength(1);

    // The pass reads the out-of-office's whole header: an auto-reply, queued for nothing.
    expect(await outOfOffice.fill()).toEqual({ filled: 1 });
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: outOfOffice.id }, select: { isAutoReply: true, bodyPending: true } })).toEqual({ isAutoReply: true, bodyPending: false });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(0);
    expect(await waitsOf(run.id)).toHaveLength(1);

    // The client's answer, filled: it wakes the wait with its body, and is not journaled as new mail (it is not).
    expect(await answer.fill()).toEqual({ filled: 1 });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    expect(await db().mailJournalEntry.findUnique({ where: { messageId: answer.id } })).toBeNull();
    const done = await waitForExecution(run.id);
    expect(done.error).toBeNull();
    expect(done.steps.find((step) => step.nodeId === 'wait')).toMatchObject({
      output: 'replied',
      data: { replied: true, reply: { id: answer.id, text: expect.stringContaining('Paid this morning, reference 77-A.'), isAutoReply: false } },
    });
    expect(await waitsOf(run.id)).toEqual([]);
    // No run was started by either listed row.
    expect(await db().execution.count({ where: { workflowId: context.workflow.id } })).toBe(1);
  });

  it('a listed row filled with no wait on its thread queues nothing', async () => {
    const context = await setUp();
    const listed = await context.list({ from: anne, subject: 'Hello', text: 'Just saying hello.' });
    expect(await listed.fill()).toEqual({ filled: 1 });
    expect(await db().mailDispatchQueue.count({ where: { mailboxId: context.mailbox.id } })).toBe(0);
  });

  it('the deadline passed first: the timeout port, nothing stays registered', async () => {
    const context = await setUp({ amount: 2, unit: 'hours' });
    const { run } = await context.firstMessage();
    const held = await waiting(run.id);
    const step = held.steps.find((candidate) => candidate.nodeId === 'wait')!;
    // The clock moves on: the wait's deadline is now past (the sweeper queues the run).
    const past = new Date(Date.now() - 1_000);
    const state = step.state as { until: string };
    await db().executionStep.update({ where: { id: step.id }, data: { state: { ...state, until: past.toISOString() } } });
    await db().execution.update({ where: { id: run.id }, data: { waitUntil: past } });
    const done = await waitForExecution(run.id);
    expect(done.error).toBeNull();
    const byNode = Object.fromEntries(done.steps.map((candidate) => [candidate.nodeId, candidate]));
    expect(byNode.wait).toMatchObject({ status: 'succeeded', output: 'timeout', data: { replied: false, reply: null } });
    expect(byNode.silent).toMatchObject({ status: 'succeeded', data: { branch: 'timeout' } });
    expect(byNode.answered.status).toBe('skipped');
    expect(await waitsOf(run.id)).toEqual([]);
  });

  it('counts business hours across a weekend: the run waits 6 business days of Europe/Paris, its deadline the business-time one', async () => {
    // Six business days never fit between two weekends (a week has five), so this run crosses one whatever the day it runs.
    const context = await setUp({ amount: 6, unit: 'days', businessHours: { timeZone: 'Europe/Paris' } });
    const { run } = await context.firstMessage();
    const held = await waiting(run.id);
    const state = (held.steps.find((step) => step.nodeId === 'wait')!.state as { node: { waitedFrom: string; deadline: string } }).node;
    const from = new Date(state.waitedFrom);
    const expected = deadlineAfter(from, 6, 'days', { timeZone: 'Europe/Paris', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '18:00' })!;
    expect(state.deadline).toBe(expected.toISOString());
    expect(held.waitUntil?.toISOString()).toBe(state.deadline);
    // 54 business hours, never less than a calendar week: the Saturday and Sunday between are skipped.
    expect(expected.getTime() - from.getTime()).toBeGreaterThanOrEqual(7 * 86_400_000);
    const parisDays = new Set<string>();
    for (let at = from.getTime(); at <= expected.getTime(); at += 3_600_000) parisDays.add(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Paris', weekday: 'short' }).format(at));
    expect([...parisDays]).toEqual(expect.arrayContaining(['Sat', 'Sun']));
    await cancelExecutions(member.id, [run.id]);
  });

  it('a cancelled run leaves nothing registered, and a later reply wakes nothing', async () => {
    const context = await setUp();
    const { first, run } = await context.firstMessage();
    await waiting(run.id);
    await cancelExecutions(member.id, [run.id]);
    expect(await waitsOf(run.id)).toEqual([]);
    await context.deliver({ from: anne, subject: 'Re: Quote for 40 chairs', text: 'Hello?', inReplyTo: first.messageId, references: first.messageId });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('cancelled');
  });

  it('a run that fails on another branch while it waits leaves nothing registered', async () => {
    const context = await setUp(undefined, { failingBranch: true });
    const { run } = await context.firstMessage();
    // Both branches wait: the reply's registered, the other branch's pause runs for 3 s, then its next step fails.
    await waiting(run.id);
    expect(await waitsOf(run.id)).toHaveLength(1);
    const failed = await waitForExecution(run.id);
    expect(failed.status).toBe('failed');
    expect(failed.steps.find((step) => step.nodeId === 'broken')?.status).toBe('failed');
    expect(await waitsOf(run.id)).toEqual([]);
  });

  it('a replay of a cancelled waiting run waits again under its own registration, and the reply wakes the replay', async () => {
    const context = await setUp();
    const { first, run } = await context.firstMessage();
    await waiting(run.id);
    await cancelExecutions(member.id, [run.id]);
    const replay = await replayExecution(member.id, run.id, { from: 'start', version: 'original' });
    await waiting(replay.executionId);
    expect(await waitsOf(replay.executionId)).toEqual([expect.objectContaining({ nodeId: 'wait', threadId: first.threadId, anchorMessageId: first.id })]);
    const reply = await context.deliver({ from: anne, subject: 'Re: Quote for 40 chairs', text: 'Yes.', inReplyTo: first.messageId, references: first.messageId });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    const done = await waitForExecution(replay.executionId);
    expect(done.steps.find((step) => step.nodeId === 'wait')).toMatchObject({ output: 'replied', data: { reply: { id: reply.id } } });
    expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('cancelled');
  });

  it('a mailbox disconnected while the run waits keeps the wait; mail mirrored once it is connected again wakes it', async () => {
    const context = await setUp();
    const { first, run } = await context.firstMessage();
    await waiting(run.id);
    const disconnected = await call('POST', `/api/v1/mailboxes/${context.mailbox.id}/disconnect`, { cookie: member.cookie, body: {} });
    expect(disconnected.status, JSON.stringify(disconnected.body)).toBe(200);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: context.mailbox.id } })).status).toBe('disconnected');
    expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('waiting');
    expect(await waitsOf(run.id)).toHaveLength(1);
    // Connected again (connect updates a known address in place: the same mailbox, its mirror kept); the
    // reply that arrived meanwhile is mirrored as new mail.
    await db().mailbox.update({ where: { id: context.mailbox.id }, data: { status: 'active', disconnectedAt: null } });
    const reply = await context.deliver({ from: anne, subject: 'Re: Quote for 40 chairs', text: 'Back from holidays: yes.', inReplyTo: first.messageId, references: first.messageId });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    const done = await waitForExecution(run.id);
    expect(done.steps.find((step) => step.nodeId === 'wait')).toMatchObject({ output: 'replied', data: { reply: { id: reply.id } } });
  });

  it('the thread merged into another while the run waits: the wait follows the message waited on (its Message-ID)', async () => {
    const context = await setUp();
    const { first, run } = await context.firstMessage();
    await waiting(run.id);
    // What a merge does (mail/threads/attach.ts): the message moves to the surviving thread, its old thread is deleted.
    const survivor = await db().mailThread.create({ data: { mailboxId: context.mailbox.id, subject: 'Quote for 40 chairs', lastMessageAt: new Date() } });
    await db().mailMessage.update({ where: { id: first.id }, data: { threadId: survivor.id } });
    await db().mailThread.delete({ where: { id: first.threadId! } });
    expect(await waitsOf(run.id)).toEqual([expect.objectContaining({ threadId: first.threadId })]);
    const reply = await context.deliver({ from: anne, subject: 'Re: Quote for 40 chairs', text: 'Merged, still yes.', inReplyTo: first.messageId, references: first.messageId });
    expect(reply.threadId).toBe(survivor.id);
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    const done = await waitForExecution(run.id);
    expect(done.steps.find((step) => step.nodeId === 'wait')).toMatchObject({ output: 'replied', data: { reply: { id: reply.id } } });
  });

  it('a test run waits the same way (a read acts on nothing): registered, woken by the reply', async () => {
    const context = await setUp();
    const { first, run } = await context.firstMessage();
    await waiting(run.id);
    const version = await db().workflowVersion.findUniqueOrThrow({ where: { id: run.workflowVersionId } });
    const data = await db().$transaction((tx) => mailTriggerDataOf(tx, first.id, { graph: version.graph, triggerNodeId: 'mail' }));
    const test = await startExecution({
      memberId: member.id,
      workflowId: run.workflowId,
      workflowVersionId: run.workflowVersionId,
      simulated: true,
      trigger: { type: 'mail', nodeId: 'mail', data, mailboxId: context.mailbox.id, messageId: first.id },
    });
    const held = await waiting(test.id);
    expect(held.holdsSlot).toBe(false);
    expect(await waitsOf(test.id)).toHaveLength(1);
    const reply = await context.deliver({ from: anne, subject: 'Re: Quote for 40 chairs', text: 'Both of you: yes.', inReplyTo: first.messageId, references: first.messageId });
    expect(await dispatchNewMail(context.mailbox.id)).toBe(1);
    // One reply ends every wait on the thread: the live run's and the test run's.
    for (const id of [run.id, test.id]) {
      const done = await waitForExecution(id);
      expect(done.steps.find((step) => step.nodeId === 'wait'), id).toMatchObject({ output: 'replied', data: { reply: { id: reply.id } } });
    }
  });
});
