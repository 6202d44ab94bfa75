/**
 * The follow-up starter template is honest (issue 24 §1): it drafts the follow-up only when nobody on
 * the contact's side wrote again within three business days and your answer is the conversation's last
 * message; unanswered by you, it reminds you; answered by them, it does nothing. Mail is mirrored through
 * the real writer and dispatched for real; the template's own graph runs on a real worker.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { dispatchNewMail } from '../../../engine/dispatch/dispatch-mail';
import { createMirrorSink } from '../../../mail/mirror/writer';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox } from '../../../testing/mail-factories';
import { buildRawMessage, type RawMessageFields } from '../../../testing/mail-servers/deliver';
import { createWorkflow } from '../../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../../runner/engine/testing/engine-worker';
import type { GraphInput } from '../../../engine/contract/graph';
import { followUpAfterThreeDays } from './follow-up-after-three-days';

await useEngineWorker();
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});

const client = 'Carla Diaz <carla@acme-client.test>';

/** The template as a member sets it up: the client's domain in the sender filter. */
function templateGraph(): GraphInput {
  const graph = structuredClone(followUpAfterThreeDays.graph);
  const trigger = graph.nodes!.find((node) => node.id === 'message')!;
  trigger.params = { ...trigger.params, from: ['@acme-client.test'] };
  return graph;
}

async function setUp() {
  const mailbox = await createMailbox(member, { address: `team-${randomUUID().slice(0, 6)}@shop.test` });
  const { workflow } = await createWorkflow(member, { name: followUpAfterThreeDays.name, graph: templateGraph() });
  const sink = createMirrorSink({ id: mailbox.id, memberId: member.id, address: mailbox.address, syncMode: 'full' });
  let uid = 0n;
  async function deliver(fields: Omit<RawMessageFields, 'to'> & { to?: string }, folder: 'INBOX' | 'Sent' = 'INBOX') {
    uid += 1n;
    const messageId = `<${randomUUID()}@mail.test>`;
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
          flags: { seen: true, flagged: false, draft: false, sent: folder === 'Sent' },
          internalDate: new Date(Date.now() - 3_600_000 + Number(uid) * 60_000),
          size: source.length,
          source,
          sourceComplete: true,
        },
      ],
      flagUpdates: [],
      removedProviderKeys: [],
      cursors: [],
    });
    expect(await dispatchNewMail(mailbox.id)).toBe(1);
    const row = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, messageIdHeader: messageId }, select: { id: true } });
    return { id: row.id, messageId };
  }
  const question = await deliver({ from: client, subject: 'Delivery of the 40 chairs', text: 'When can you deliver?' });
  const run = await db().execution.findFirstOrThrow({ where: { workflowId: workflow.id, messageId: question.id } });
  expect((await waitForExecution(run.id, { statuses: ['waiting', 'failed', 'succeeded'] })).status).toBe('waiting');
  const answer = (text: string) =>
    deliver({ from: `Shop <${mailbox.address}>`, to: 'carla@acme-client.test', subject: 'Re: Delivery of the 40 chairs', text, inReplyTo: question.messageId, references: question.messageId }, 'Sent');
  return { mailbox, run, question, deliver, answer };
}

/** Three business days pass: the wait's deadline is moved to the past (the sweeper resumes the run). */
async function deadlinePasses(executionId: string) {
  const step = await db().executionStep.findUniqueOrThrow({ where: { executionId_nodeId: { executionId, nodeId: 'wait' } } });
  const past = new Date(Date.now() - 1_000);
  await db().executionStep.update({ where: { id: step.id }, data: { state: { ...(step.state as object), until: past.toISOString() } } });
  await db().execution.update({ where: { id: executionId }, data: { waitUntil: past } });
  const done = await waitForExecution(executionId);
  expect(done.error).toBeNull();
  return { done, steps: Object.fromEntries(done.steps.map((step) => [step.nodeId, step.status])) };
}

describe('the follow-up starter template', () => {
  it('you answered and the client went quiet: a follow-up in the same conversation waits in Review', async () => {
    const { run, question, answer } = await setUp();
    await answer('Next week, probably.');
    const { steps } = await deadlinePasses(run.id);
    expect(steps).toMatchObject({ wait: 'succeeded', thread: 'succeeded', answered: 'succeeded', draft: 'succeeded', remind: 'skipped' });
    const item = await db().outboundMessage.findFirstOrThrow({ where: { executionId: run.id } });
    expect(item).toMatchObject({ mode: 'draft', reviewStatus: 'pending', toAddrs: ['carla@acme-client.test'], relation: 'reply', relatedMessageId: question.id });
    expect(item.bodyText).toContain('I am following up on my message about “Delivery of the 40 chairs”');
  });

  it('nobody answered the client: a reminder for you, no draft', async () => {
    const { run } = await setUp();
    const { steps } = await deadlinePasses(run.id);
    expect(steps).toMatchObject({ thread: 'succeeded', remind: 'succeeded', draft: 'skipped' });
    expect(await db().outboundMessage.count({ where: { executionId: run.id } })).toBe(0);
    const notice = await db().notification.findFirstOrThrow({ where: { memberId: member.id, kind: 'workflow.notice', params: { path: ['executionId'], equals: run.id } } });
    expect(notice.params).toMatchObject({ title: 'Still unanswered: Delivery of the 40 chairs', body: expect.stringContaining('carla@acme-client.test wrote on') });
  });

  it('the client wrote again: the run ends on the reply, nothing drafted, nobody reminded', async () => {
    const { run, question, answer, deliver } = await setUp();
    const ours = await answer('Next week, probably.');
    // An out-of-office answer is not their reply.
    await deliver({ from: client, subject: 'Out of office', text: 'Back on Monday.', inReplyTo: ours.messageId, references: [question.messageId, ours.messageId], headers: { 'Auto-Submitted': 'auto-replied' } });
    expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('waiting');
    const reply = await deliver({ from: client, subject: 'Re: Delivery of the 40 chairs', text: 'Perfect, thank you.', inReplyTo: ours.messageId, references: [question.messageId, ours.messageId] });
    const done = await waitForExecution(run.id);
    expect(done.error).toBeNull();
    const steps = Object.fromEntries(done.steps.map((step) => [step.nodeId, step]));
    expect(steps.wait).toMatchObject({ status: 'succeeded', output: 'replied', data: { reply: { id: reply.id } } });
    expect([steps.thread.status, steps.draft.status, steps.remind.status]).toEqual(['skipped', 'skipped', 'skipped']);
    expect(await db().outboundMessage.count({ where: { executionId: run.id } })).toBe(0);
  });
});
