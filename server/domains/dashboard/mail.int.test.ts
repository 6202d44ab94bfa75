import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { dispatchNewMail } from '../../engine/dispatch/dispatch-mail';
import { journalOutcomes } from '../journal/schemas';

await useTestDatabase();

// Three whole UTC days (day buckets), the previous period is the three days before.
const window = 'period=custom&from=2025-03-10T00:00:00Z&to=2025-03-13T00:00:00Z';
type Signal = 'isBulk' | 'isAutoReply' | 'isDeliveryReport' | 'isMailingList' | 'isNoReply' | 'isFromSelf';

let member: TestMember;
let other: TestMember;
let admin: TestMember;
let box: { id: string };
let second: { id: string };
let foreignBox: { id: string };
let workflow: { id: string; versionId: string };
let foreignWorkflow: { id: string };
let firstMessage: { id: string };

async function entry(owner: TestMember, mailbox: { id: string }, createdAt: string, outcome: (typeof journalOutcomes)[number], signal?: Signal) {
  const message = await createMessage(mailbox);
  if (signal) await db().mailMessage.update({ where: { id: message.id }, data: { [signal]: true } });
  // As dispatch writes it (isAutomatedMail): the loop guard's kind is not automated mail.
  const automated = signal !== undefined && signal !== 'isFromSelf';
  await db().mailJournalEntry.create({ data: { memberId: owner.id, mailboxId: mailbox.id, messageId: message.id, outcome, automated, createdAt: new Date(createdAt) } });
  return message;
}

async function outbound(owner: TestMember, mailbox: { id: string }, data: { mode: 'draft' | 'send'; origin?: string; createdAt: string; sentAt?: string; workflowId?: string }) {
  await db().outboundMessage.create({
    data: {
      memberId: owner.id,
      mailboxId: mailbox.id,
      mailboxAddress: 'me@example.test',
      mode: data.mode,
      origin: data.origin ?? 'workflow',
      reviewStatus: data.mode === 'draft' ? 'pending' : 'none',
      sendStatus: data.sentAt ? 'done' : 'pending',
      subject: 'Hi',
      messageIdHeader: `<${crypto.randomUUID()}@example.test>`,
      createdAt: new Date(data.createdAt),
      sentAt: data.sentAt ? new Date(data.sentAt) : null,
      workflowId: data.workflowId ?? null,
    },
  });
}

const mail = (path: string, who: TestMember | string) => call('GET', `/api/v1/dashboard/mail?${path}`, typeof who === 'string' ? { key: who } : { cookie: who.cookie });
const counts = (body: { byOutcome: Array<{ outcome: string; count: number }> }) => Object.fromEntries(body.byOutcome.map((row) => [row.outcome, row.count]));

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  admin = await createMember({ role: 'admin' });
  box = await createMailbox(member);
  second = await createMailbox(member);
  foreignBox = await createMailbox(other);
  const created = await createWorkflow(member, { name: 'Mine' });
  workflow = { id: created.workflow.id, versionId: created.version!.id };
  foreignWorkflow = (await createWorkflow(other, { name: 'Theirs' })).workflow;

  firstMessage = await entry(member, box, '2025-03-10T01:00:00.000Z', 'dispatched');
  await entry(member, box, '2025-03-10T23:59:59.999Z', 'dispatched', 'isBulk');
  const guarded = await entry(member, box, '2025-03-11T12:00:00.000Z', 'guardrail', 'isAutoReply');
  await entry(member, second, '2025-03-12T05:00:00.000Z', 'unmatched', 'isDeliveryReport');
  await entry(member, box, '2025-03-13T00:00:00.000Z', 'dispatched'); // at `to`: outside
  await entry(member, box, '2025-03-09T12:00:00.000Z', 'excluded_member', 'isNoReply'); // previous
  await entry(member, box, '2025-03-07T00:00:00.000Z', 'dispatched', 'isFromSelf'); // previous, at previousFrom; the loop guard's kind is not "automated"
  await entry(member, box, '2025-03-06T23:59:59.999Z', 'dispatched'); // before the previous period
  await entry(other, foreignBox, '2025-03-11T08:00:00.000Z', 'dispatched', 'isMailingList');

  // Runs: a real run of the workflow on the first message; a test run on the guarded one does not count.
  const run = { memberId: member.id, workflowId: workflow.id, workflowVersionId: workflow.versionId, timeoutMs: 1000, status: 'succeeded' };
  await db().execution.create({ data: { ...run, messageId: firstMessage.id } });
  await db().execution.create({ data: { ...run, messageId: guarded.id, simulated: true, holdsSlot: false } });

  await outbound(member, box, { mode: 'draft', createdAt: '2025-03-11T09:00:00Z', workflowId: workflow.id });
  await outbound(member, second, { mode: 'draft', createdAt: '2025-03-12T09:00:00Z' });
  await outbound(member, box, { mode: 'draft', createdAt: '2025-03-08T09:00:00Z' }); // previous
  await outbound(member, box, { mode: 'draft', createdAt: '2025-03-11T09:00:00Z', origin: 'webmail' }); // not a workflow's
  await outbound(member, box, { mode: 'send', createdAt: '2025-03-09T09:00:00Z', sentAt: '2025-03-12T10:00:00Z', workflowId: workflow.id }); // counted when sent
  await outbound(member, box, { mode: 'send', createdAt: '2025-03-08T09:00:00Z', sentAt: '2025-03-08T10:00:00Z' }); // previous
  await outbound(member, box, { mode: 'send', createdAt: '2025-03-11T09:00:00Z' }); // not sent yet
  await outbound(member, box, { mode: 'send', createdAt: '2025-03-11T09:00:00Z', sentAt: '2025-03-11T10:00:00Z', origin: 'webmail' });
  await outbound(other, foreignBox, { mode: 'draft', createdAt: '2025-03-11T09:00:00Z' });
});

describe('GET /api/v1/dashboard/mail', () => {
  it('counts the journal’s new mail in [from, to) by outcome (zeros included), automated mail, workflows’ drafts and sends, and the previous period', async () => {
    const response = await mail(window, member);
    expect(response.status).toBe(200);
    const { current, previous } = response.body;
    expect(current).toMatchObject({ received: 4, automatedEmails: 3, draftsPrepared: 2, sentByWorkflows: 1 });
    expect(current.byOutcome).toEqual(journalOutcomes.map((outcome) => ({ outcome, count: { dispatched: 2, guardrail: 1, unmatched: 1 }[outcome as string] ?? 0 })));
    expect(previous).toMatchObject({ received: 2, automatedEmails: 1, draftsPrepared: 1, sentByWorkflows: 1 });
    expect(counts(previous)).toEqual({ excluded_org: 0, excluded_member: 1, guardrail: 0, unmatched: 0, dispatched: 1 });
  });

  it('places received and dispatched mail on the reader’s buckets, summing to the totals', async () => {
    const utc = await mail(window, member);
    expect(utc.body.window.buckets).toEqual(['2025-03-10T00:00:00.000Z', '2025-03-11T00:00:00.000Z', '2025-03-12T00:00:00.000Z']);
    expect(utc.body.series).toEqual({ received: [2, 1, 1], dispatched: [2, 0, 0] });
    // In Paris (UTC+1 in March) 23:59 UTC on the 10th is the 11th: the bucket follows the reader’s day.
    const paris = await mail(`${window}&tz=Europe/Paris`, member);
    expect(paris.body.window.buckets[0]).toBe('2025-03-09T23:00:00.000Z');
    // The window ends at 01:00 in Paris on the 13th: a fourth, empty bucket.
    expect(paris.body.series).toEqual({ received: [1, 2, 1, 0], dispatched: [1, 1, 0, 0] });
  });

  it('mailboxId narrows to that mailbox; workflowId to the messages that started a real run of it and the workflow’s drafts and sends', async () => {
    const bySecond = (await mail(`${window}&mailboxId=${second.id}`, member)).body.current;
    expect(bySecond).toMatchObject({ received: 1, automatedEmails: 1, draftsPrepared: 1, sentByWorkflows: 0 });
    expect(counts(bySecond).unmatched).toBe(1);
    const byWorkflow = (await mail(`${window}&workflowId=${workflow.id}`, member)).body;
    expect(byWorkflow.current).toMatchObject({ received: 1, automatedEmails: 0, draftsPrepared: 1, sentByWorkflows: 1 });
    expect(byWorkflow.series).toEqual({ received: [1, 0, 0], dispatched: [1, 0, 0] });
  });

  it('another member’s mailboxId or workflowId under scope=me counts nothing', async () => {
    for (const filter of [`mailboxId=${foreignBox.id}`, `workflowId=${foreignWorkflow.id}`]) {
      const response = await mail(`${window}&${filter}`, member);
      expect(response.status, filter).toBe(200);
      expect(response.body.current, filter).toMatchObject({ received: 0, automatedEmails: 0, draftsPrepared: 0, sentByWorkflows: 0 });
      expect(response.body.series.received, filter).toEqual([0, 0, 0]);
    }
  });

  it('scope=org counts every member for an administrator, memberId one of them; a member asking for org is 403', async () => {
    const org = await mail(`${window}&scope=org`, admin);
    expect(org.status).toBe(200);
    expect(org.body.current).toMatchObject({ received: 5, automatedEmails: 4, draftsPrepared: 3, sentByWorkflows: 1 });
    const one = await mail(`${window}&scope=org&memberId=${other.id}`, admin);
    expect(one.body.current).toMatchObject({ received: 1, automatedEmails: 1, draftsPrepared: 1, sentByWorkflows: 0 });
    // The administrator's own scope=me: nothing of theirs.
    expect((await mail(window, admin)).body.current.received).toBe(0);
    const refused = await mail(`${window}&scope=org`, member);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('dashboard.forbidden');
  });

  it('needs dashboard:read: a key without it is 403', async () => {
    const without = await createApiKeyFor(member, ['messages:read']);
    expect((await mail(window, without.secret)).status).toBe(403);
    const withIt = await createApiKeyFor(member, ['dashboard:read']);
    const response = await mail(window, withIt.secret);
    expect(response.status).toBe(200);
    expect(response.body.current.received).toBe(4);
  });

  it('automatedEmails: dispatch marks the entry of a delivery report, auto-reply, no-reply, list or bulk message; not a plain one nor mail from the mailbox itself', async () => {
    const own = await createMember();
    const mailbox = await createMailbox(own);
    for (const signal of [undefined, 'isDeliveryReport', 'isAutoReply', 'isNoReply', 'isMailingList', 'isBulk', 'isFromSelf'] as const) {
      const message = await createMessage(mailbox);
      if (signal) await db().mailMessage.update({ where: { id: message.id }, data: { [signal]: true } });
      await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: mailbox.id } });
    }
    await dispatchNewMail(mailbox.id);
    const response = await mail('period=24h', own);
    expect(response.body.current).toMatchObject({ received: 7, automatedEmails: 5 });
    // The figure is the journal's: it outlives the message leaving the mirror.
    await db().mailMessage.deleteMany({ where: { mailboxId: mailbox.id, isBulk: true } });
    expect((await mail('period=24h', own)).body.current).toMatchObject({ received: 7, automatedEmails: 5 });
  });

  it('drills down: the journal list filtered by the window and an outcome returns exactly byOutcome’s count', async () => {
    const dashboard = (await mail(window, member)).body;
    const { from, to } = dashboard.window;
    for (const { outcome, count } of dashboard.current.byOutcome as Array<{ outcome: string; count: number }>) {
      const list = await call('GET', `/api/v1/journal?outcome=${outcome}&from=${from}&to=${to}&limit=200`, { cookie: member.cookie });
      expect(list.status).toBe(200);
      expect(list.body.entries, outcome).toHaveLength(count);
    }
    const all = await call('GET', `/api/v1/journal?from=${from}&to=${to}&limit=200`, { cookie: member.cookie });
    expect(all.body.entries).toHaveLength(dashboard.current.received);
  });
});
