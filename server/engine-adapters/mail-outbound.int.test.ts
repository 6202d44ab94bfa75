/**
 * The workflow mail nodes through the real engine: mail.draft makes one pending review item (also
 * when its step is retried), mail.send waits for review unless the workflow sends without review
 * (then the `mail.send` job is enqueued), a test run writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../core/db';
import { jobKeys } from '../core/jobs/catalogue';
import type { GraphInput } from '../engine/contract/graph';
import { startExecution } from '../engine/run/start';
import { createMember, type TestMember } from '../testing/factories';
import { createMailbox, createMessage } from '../testing/mail-factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';
import { createWorkflow } from '../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../runner/engine/testing/engine-worker';
import { leftRunning } from '../../runner/engine/testing/left-running';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let member: TestMember;
let mailbox: { id: string; address: string };

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  member = await createMember();
  mailbox = await createMailbox(member, { address: 'desk@example.test' });
});
afterAll(async () => {
  await worker?.stop();
});

const webhook = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const mailTrigger = { id: 'start', type: 'trigger.mail', version: 1, name: 'Mail', params: {} };
const node = (id: string, type: string, params: Record<string, unknown>) => ({ id, type, version: 1, name: `Node ${id}`, params });
const graphOf = (trigger: typeof webhook, step: ReturnType<typeof node>): GraphInput => ({ nodes: [trigger, step], connections: [{ from: 'start', output: 'main', to: step.id }] });

async function start(graph: GraphInput, options: { message?: { id: string }; simulated?: boolean } = {}) {
  const { workflow, version } = await createWorkflow(member, { graph, name: 'Mail desk' });
  const execution = await startExecution({
    memberId: member.id,
    workflowId: workflow.id,
    workflowVersionId: version!.id,
    simulated: options.simulated,
    trigger: options.message
      ? { type: 'mail', nodeId: 'start', mailboxId: mailbox.id, messageId: options.message.id, data: { messageId: options.message.id } }
      : { type: 'webhook', nodeId: 'start', data: { email: 'lead@example.test', name: 'Lead' } },
  });
  return { workflow, execution };
}

const sendJobOf = async (id: string) => (await db().$queryRaw<{ task_identifier: string }[]>`SELECT task_identifier FROM graphile_worker.jobs WHERE key = ${jobKeys.send(id)}`)[0] ?? null;

describe('mail.draft', () => {
  it('a webhook run drafts a new message from expressions: one pending review item with the run as its source, no send job', async () => {
    const { workflow, execution } = await start(
      graphOf(webhook, node('draft', 'mail.draft', { mailboxId: mailbox.id, to: '{{ trigger.email }}', subject: 'Welcome {{ trigger.name }}', bodyText: 'Hello {{ trigger.name }}' })),
    );
    const done = await waitForExecution(execution.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    const items = await db().outboundMessage.findMany({ where: { executionId: execution.id } });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      mode: 'draft',
      origin: 'workflow',
      reviewStatus: 'pending',
      sendStatus: 'pending',
      toAddrs: ['lead@example.test'],
      subject: 'Welcome Lead',
      bodyText: 'Hello Lead',
      workflowId: workflow.id,
      workflowName: 'Mail desk',
      nodeId: 'draft',
      nodeType: 'mail.draft',
      mailboxAddress: 'desk@example.test',
    });
    expect(done.steps.find((step) => step.nodeId === 'draft')!.data).toMatchObject({ itemId: items[0].id, reviewStatus: 'pending', sendStatus: 'pending', messageIdHeader: items[0].messageIdHeader, to: ['lead@example.test'], subject: 'Welcome Lead' });
    expect(await sendJobOf(items[0].id)).toBeNull();
  });

  it('a mail-triggered run replies to the triggering message: threaded, to the sender, Re: subject, its attachments', async () => {
    const message = await createMessage(mailbox, { subject: 'Invoice', fromEmail: 'client@example.test' });
    await db().mailMessage.update({ where: { id: message.id }, data: { recipients: { to: [{ email: 'desk@example.test' }], cc: [{ email: 'boss@example.test' }] } } });
    await db().mailAttachment.create({ data: { messageId: message.id, position: 1, filename: 'a.pdf', mime: 'application/pdf', size: 3, disposition: 'attachment' } });
    const { execution } = await start(graphOf(mailTrigger, node('draft', 'mail.draft', { replyTo: { mode: 'replyAll' }, bodyText: 'Received', attachments: [{ source: 'trigger' }] })), { message });
    expect((await waitForExecution(execution.id)).status).toBe('succeeded');
    const item = await db().outboundMessage.findFirstOrThrow({ where: { executionId: execution.id } });
    expect(item).toMatchObject({
      toAddrs: ['client@example.test'],
      ccAddrs: ['boss@example.test'],
      subject: 'Re: Invoice',
      inReplyTo: message.messageIdHeader,
      references: [message.messageIdHeader],
      relatedMessageId: message.id,
      relation: 'replyAll',
      threadId: message.threadId,
      attachments: [{ source: 'message', messageId: message.id, position: 1 }],
    });
  });

  it('a retried step (the first attempt cut off after making the item) makes no second item', async () => {
    const { workflow, version } = await createWorkflow(member, { graph: graphOf(webhook, node('draft', 'mail.draft', { mailboxId: mailbox.id, to: 'x@example.test', subject: 'Once' })) });
    const execution = await leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id });
    await db().executionStep.create({ data: { executionId: execution.id, nodeId: 'draft', nodeType: 'mail.draft', status: 'running', attempt: 1, seq: 1, startedAt: new Date(), attemptStartedAt: new Date(Date.now() - 2_000) } });
    // What the first attempt did before the runner died: claimed the effect and made the item.
    const effectKey = `${execution.id}:draft:outbound`;
    await db().executionEffect.create({ data: { effectKey, executionId: execution.id, nodeId: 'draft', kind: 'mail.draft', description: 'Draft' } });
    const { createOutbound } = await import('../domains/outbound/create');
    const { item: first } = await createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'draft', origin: 'workflow', review: true, to: ['x@example.test'], subject: 'Once', dedupeKey: effectKey }, db() as never);

    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'draft')!;
    // The cut-off attempt is in the history; an interruption of a node with no outside effect
    // consumes no attempt (the spec retries such nodes after an interruption), so the number stays.
    expect(step.attempts).toEqual([expect.objectContaining({ attempt: 1, interrupted: true, retried: true })]);
    expect(step.attempt).toBe(1);
    expect(step.data).toMatchObject({ itemId: first.id });
    expect(await db().outboundMessage.count({ where: { memberId: member.id, subject: 'Once' } })).toBe(1);
  }, 20_000);

  it('a test run writes nothing and answers a simulated item', async () => {
    const before = await db().outboundMessage.count();
    const { execution } = await start(graphOf(webhook, node('draft', 'mail.draft', { mailboxId: mailbox.id, to: 'x@example.test', subject: 'Dry' })), { simulated: true });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((step) => step.nodeId === 'draft')!.data).toMatchObject({ itemId: 'simulated', simulated: true, to: ['x@example.test'], subject: 'Dry' });
    expect(await db().outboundMessage.count()).toBe(before);
  });

  it('no mailbox and no triggering message fails mail.mailbox_required', async () => {
    const { execution } = await start(graphOf(webhook, node('draft', 'mail.draft', { to: 'x@example.test' })));
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'mail.mailbox_required', kind: 'permanent' });
  });
});

describe('mail.send', () => {
  it('waits in the review queue by default (mode send, pending, no job)', async () => {
    const { execution } = await start(graphOf(webhook, node('send', 'mail.send', { mailboxId: mailbox.id, to: ['a@example.test'], subject: 'Reviewed' })));
    expect((await waitForExecution(execution.id)).status).toBe('succeeded');
    const item = await db().outboundMessage.findFirstOrThrow({ where: { executionId: execution.id } });
    expect(item).toMatchObject({ mode: 'send', reviewStatus: 'pending', nodeType: 'mail.send' });
    expect(await sendJobOf(item.id)).toBeNull();
  });

  it('with settings.sendWithoutReview (PATCH) it goes out without review: the mail.send job is enqueued', async () => {
    const { workflow, version } = await createWorkflow(member, { graph: graphOf(webhook, node('send', 'mail.send', { mailboxId: mailbox.id, to: 'a@example.test, b@example.test', subject: 'Direct' })) });
    const patched = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: member.cookie, body: { settings: { sendWithoutReview: true } } });
    expect(patched.status).toBe(200);
    expect(patched.body.workflow.sendWithoutReview).toBe(true);
    const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const item = await db().outboundMessage.findFirstOrThrow({ where: { executionId: execution.id } });
    expect(item).toMatchObject({ mode: 'send', reviewStatus: 'none', sendStatus: 'pending', toAddrs: ['a@example.test', 'b@example.test'] });
    expect(done.steps.find((step) => step.nodeId === 'send')!.data).toMatchObject({ itemId: item.id, reviewStatus: 'none' });
    expect(await sendJobOf(item.id)).toMatchObject({ task_identifier: 'mail.send' });

    const reset = await call('PATCH', `/api/v1/workflows/${workflow.id}`, { cookie: member.cookie, body: { settings: { sendWithoutReview: false } } });
    expect(reset.body.workflow.sendWithoutReview).toBe(false);
  });
});
