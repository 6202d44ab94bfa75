/**
 * Every starter template installed and run for real: synced into the templates table, its stored
 * graph taken as an install would take it, the parameters a member sets filled in, created and
 * published through the workflows routes, then started the way its trigger starts it (mail through
 * the dispatcher, a webhook event, the schedule task, another workflow's failure) in the real engine
 * (graphile-worker with the advance task and the sweeper), and what it did checked in the database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { dispatchNewMail } from '../../server/engine/dispatch/dispatch-mail';
import { startDueSchedules } from '../../server/engine/dispatch/schedules';
import type { GraphInput } from '../../server/engine/contract/graph';
import { wakeExecution } from '../../server/engine/run/lease';
import { startExecution } from '../../server/engine/run/start';
import { starterTemplates } from '../../server/domains/templates/starter';
import { createMember, type TestMember } from '../../server/testing/factories';
import { createMailbox, createMessage, type TestMessageOptions } from '../../server/testing/mail-factories';
import { call } from '../../server/testing/rest-client';
import { useTestDatabase } from '../../server/testing/test-database';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../engine/testing/engine-worker';
import { syncStarterTemplates } from './sync-starter';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let admin: TestMember;

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  admin = await createMember({ role: 'admin' });
  await syncStarterTemplates();
});
afterAll(async () => {
  await worker?.stop();
});

type Fill = Record<string, Record<string, unknown>>;

/** The stored template's graph (what installing copies) with the member's settings merged into node params. */
async function templateGraph(slug: string, fill: Fill = {}): Promise<GraphInput> {
  const row = await db().template.findUniqueOrThrow({ where: { slug } });
  const graph = structuredClone(row.graph) as GraphInput;
  for (const node of graph.nodes ?? []) if (fill[node.id]) node.params = { ...node.params, ...fill[node.id] };
  return graph;
}

/** Installs a starter for `member` through the workflows routes (create, then publish). */
async function install(member: TestMember, slug: string, fill: Fill = {}) {
  const template = starterTemplates.find((candidate) => candidate.slug === slug)!;
  for (const item of template.setUp) expect(Object.keys(fill[item.nodeId] ?? {}), `${slug}: set ${item.nodeId}.${item.param}`).toContain(item.param);
  const created = await call('POST', '/api/v1/workflows', { cookie: member.cookie, body: { name: template.name, description: template.description, graph: await templateGraph(slug, fill) } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.workflow.id as string;
  const published = await call('POST', `/api/v1/workflows/${id}/publish`, { cookie: member.cookie, body: {} });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return db().workflow.findUniqueOrThrow({ where: { id } });
}

type Flags = Partial<{ isAutoReply: boolean; isNoReply: boolean; isMailingList: boolean; isBulk: boolean }>;

/** New mail, queued and dispatched as the mirror writer and the dispatch job do. */
async function deliver(mailbox: { id: string }, options: TestMessageOptions & Flags & { to?: string } = {}) {
  const { isAutoReply, isNoReply, isMailingList, isBulk, to, ...rest } = options;
  const message = await createMessage(mailbox, rest);
  await db().mailMessage.update({
    where: { id: message.id },
    data: { isAutoReply: isAutoReply ?? false, isNoReply: isNoReply ?? false, isMailingList: isMailingList ?? false, isBulk: isBulk ?? false, recipients: { to: [{ email: to ?? 'me@example.test' }], cc: [] } },
  });
  await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: mailbox.id } });
  await dispatchNewMail(mailbox.id);
  return message;
}

async function runOf(workflowId: string, filter: { messageId?: string } = {}) {
  const execution = await db().execution.findFirst({ where: { workflowId, ...filter }, orderBy: { createdAt: 'desc' } });
  expect(execution, 'the workflow started a run').not.toBeNull();
  return execution!;
}

const stepsOf = (steps: { nodeId: string; status: string }[]) => Object.fromEntries(steps.map((step) => [step.nodeId, step.status]));

async function newMemberWithMailbox(address: string) {
  const member = await createMember();
  const mailbox = await createMailbox(member, { address });
  return { member, mailbox };
}

/** Moves a waiting step's deadline into the past, as time would, and wakes the run. */
async function passWait(executionId: string, nodeId: string) {
  const past = new Date(Date.now() - 1_000);
  const step = await db().executionStep.findUniqueOrThrow({ where: { executionId_nodeId: { executionId, nodeId } } });
  await db().executionStep.update({ where: { id: step.id }, data: { state: { ...(step.state as object), until: past.toISOString() } } });
  await db().execution.update({ where: { id: executionId }, data: { waitUntil: past } });
  await wakeExecution(executionId);
}

describe('starter templates, installed and run', () => {
  it('label-and-archive-newsletters: a newsletter (bulk list mail, whatever its sender) is labelled, marked read and archived; other mail is left alone', async () => {
    const { member, mailbox } = await newMemberWithMailbox('desk-news@example.test');
    const workflow = await install(member, 'label-and-archive-newsletters');
    const message = await deliver(mailbox, { fromEmail: 'hello@shop.test', fromName: 'Shop', subject: 'Our news', isMailingList: true, isBulk: true });
    const done = await waitForExecution((await runOf(workflow.id, { messageId: message.id })).id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    const after = await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect(after.labels).toContain('Newsletters');
    expect(after.seen).toBe(true);
    expect(after.folderKey).toBe('Archive');
    expect(await db().mailOperation.count({ where: { messageId: message.id } })).toBe(3);

    const personal = await deliver(mailbox, { fromEmail: 'alice@client.test', subject: 'Lunch?' });
    expect(await db().execution.count({ where: { messageId: personal.id } })).toBe(0);
    const discussion = await deliver(mailbox, { fromEmail: 'bob@lists.test', subject: 'Re: [typo] Ligatures', isMailingList: true });
    expect(await db().execution.count({ where: { messageId: discussion.id } })).toBe(0);
  });

  it('follow-up-after-three-days: waits three business days for the contact to write again; nobody answered them, so it reminds the member instead of drafting', async () => {
    const { member, mailbox } = await newMemberWithMailbox('desk-follow@example.test');
    const businessHours = { timeZone: 'Europe/Paris', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '18:00' };
    const workflow = await install(member, 'follow-up-after-three-days', { message: { from: ['@client.test'] }, wait: { businessHours } });
    const message = await deliver(mailbox, { fromEmail: 'bob@client.test', fromName: 'Bob', subject: 'Quote for the new site', receivedAt: new Date('2026-11-20T09:00:00Z') });
    const run = await runOf(workflow.id, { messageId: message.id });
    const waiting = await waitForExecution(run.id, { statuses: ['waiting', 'failed', 'succeeded'] });
    expect(waiting.status).toBe('waiting');
    // Three business days of nine hours: never less than two calendar days away, whatever the hour of the test.
    expect(waiting.waitUntil!.getTime() - Date.now()).toBeGreaterThan(2 * 86_400_000);
    expect(await db().outboundMessage.count({ where: { executionId: run.id } })).toBe(0);

    await passWait(run.id, 'wait');
    const done = await waitForExecution(run.id);
    expect(done.error).toBeNull();
    // The member never answered Bob: a reminder, not a follow-up (server/domains/templates/starter/follow-up-template.int.test.ts
    // covers the follow-up drafted after the member's own answer).
    expect(await db().outboundMessage.count({ where: { executionId: run.id } })).toBe(0);
    const notice = await db().notification.findFirstOrThrow({ where: { memberId: member.id, kind: 'workflow.notice', params: { path: ['executionId'], equals: run.id } } });
    expect(notice.params).toMatchObject({ title: 'Still unanswered: Quote for the new site' });
  });

  it('extract-invoices-into-a-table: an invoice becomes a row of the invoices table (found by its slug) and is labelled', async () => {
    const table = await call('POST', '/api/v1/tables', {
      cookie: admin.cookie,
      body: {
        name: 'Invoices',
        columns: [{ label: 'Invoice', isKey: true }, { label: 'Sender', type: 'email' }, { label: 'Subject' }, { label: 'Received at', type: 'datetime' }, { label: 'Amount' }],
      },
    });
    expect(table.status, JSON.stringify(table.body)).toBe(201);
    expect(table.body.table.slug).toBe('invoices');
    const tableId = table.body.table.id as string;
    const { member, mailbox } = await newMemberWithMailbox('desk-invoices@example.test');
    // The shipped default names the table by its slug: nothing else to set.
    const workflow = await install(member, 'extract-invoices-into-a-table', { save: { tableId: 'invoices' } });
    const message = await deliver(mailbox, {
      fromEmail: 'billing@acme.test',
      subject: 'Invoice INV-2026-0042 from Acme',
      snippet: 'Total due: 1,250.00 EUR by Friday',
      hasAttachments: true,
      receivedAt: new Date('2026-11-23T10:15:00Z'),
    });
    const done = await waitForExecution((await runOf(workflow.id, { messageId: message.id })).id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    const rows = await db().tableRow.findMany({ where: { tableId } });
    expect(rows).toHaveLength(1);
    expect(rows[0].keyValue).toBe('INV-2026-0042');
    expect(rows[0].cells).toMatchObject({ invoice: 'INV-2026-0042', sender: 'billing@acme.test', subject: 'Invoice INV-2026-0042 from Acme', amount: '1,250.00 EUR' });
    expect(String((rows[0].cells as Record<string, unknown>).received_at)).toMatch(/^2026-11-23T10:15/);
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).labels).toContain('Invoices');

    // Without an attachment it is not an invoice to file.
    const chat = await deliver(mailbox, { fromEmail: 'billing@acme.test', subject: 'Invoice question', hasAttachments: false });
    expect(await db().execution.count({ where: { messageId: chat.id } })).toBe(0);
  });

  it('approve-before-answering: the colleague is asked; approved → a reply drafted for review, rejected → labelled Declined', async () => {
    const { member, mailbox } = await newMemberWithMailbox('desk-approve@example.test');
    const workflow = await install(member, 'approve-before-answering', { message: { from: ['@client.test'] }, approval: { approverEmails: ['colleague@example.test'] } });

    const first = await deliver(mailbox, { fromEmail: 'carol@client.test', subject: 'Contract renewal', snippet: 'Can we renew at the same price?' });
    const run = await runOf(workflow.id, { messageId: first.id });
    expect((await waitForExecution(run.id, { statuses: ['waiting', 'failed', 'succeeded'] })).status).toBe('waiting');
    const approval = await db().approval.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: run.id, nodeId: 'approval' } } });
    expect(approval).toMatchObject({ status: 'pending', title: 'Answer “Contract renewal”?', approverEmails: ['colleague@example.test'] });
    expect(approval.details).toContain('From carol@client.test: Can we renew at the same price?');
    expect(await db().outboundMessage.count({ where: { approvalId: approval.id, origin: 'approval', toAddrs: { has: 'colleague@example.test' } } })).toBe(1);
    const decided = await call('POST', `/api/v1/approvals/${approval.id}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(decided.status).toBe(200);
    const done = await waitForExecution(run.id);
    expect(done.status).toBe('succeeded');
    expect(stepsOf(done.steps)).toMatchObject({ reply: 'succeeded', declined: 'skipped' });
    expect(await db().outboundMessage.findFirstOrThrow({ where: { executionId: run.id, nodeId: 'reply' } })).toMatchObject({
      mode: 'draft',
      reviewStatus: 'pending',
      toAddrs: ['carol@client.test'],
      subject: 'Re: Contract renewal',
    });

    const second = await deliver(mailbox, { fromEmail: 'carol@client.test', subject: 'Discount please' });
    const refused = await runOf(workflow.id, { messageId: second.id });
    await waitForExecution(refused.id, { statuses: ['waiting', 'failed', 'succeeded'] });
    const other = await db().approval.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: refused.id, nodeId: 'approval' } } });
    await call('POST', `/api/v1/approvals/${other.id}/decide`, { cookie: member.cookie, body: { decision: 'reject' } });
    const ended = await waitForExecution(refused.id);
    expect(stepsOf(ended.steps)).toMatchObject({ reply: 'skipped', declined: 'succeeded' });
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: second.id } })).labels).toContain('Declined');
    expect(await db().outboundMessage.count({ where: { executionId: refused.id, nodeId: 'reply' } })).toBe(0);
  });

  it('forward-webhook-events-as-mail: an event becomes a message waiting for review; without text the event itself is the body', async () => {
    const { member, mailbox } = await newMemberWithMailbox('desk-hooks@example.test');
    const workflow = await install(member, 'forward-webhook-events-as-mail', { send: { mailboxId: mailbox.id } });
    const start = (data: Record<string, unknown>) =>
      startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: workflow.publishedVersionId!, trigger: { type: 'webhook', nodeId: 'event', data } });

    const event = await start({ to: 'ops@example.test', subject: 'Deploy finished', text: 'Version 42 is live.' });
    expect((await waitForExecution(event.id)).status).toBe('succeeded');
    expect(await db().outboundMessage.findFirstOrThrow({ where: { executionId: event.id } })).toMatchObject({
      mode: 'send',
      reviewStatus: 'pending',
      mailboxAddress: 'desk-hooks@example.test',
      toAddrs: ['ops@example.test'],
      subject: 'Deploy finished',
      bodyText: 'Version 42 is live.',
    });

    const bare = await start({ to: 'ops@example.test', build: 43 });
    expect((await waitForExecution(bare.id)).status).toBe('succeeded');
    const item = await db().outboundMessage.findFirstOrThrow({ where: { executionId: bare.id } });
    expect(item.subject).toBe('New event');
    expect(JSON.parse(item.bodyText!)).toEqual({ to: 'ops@example.test', build: 43 });
  });

  it('alert-on-workflow-failures: another workflow’s failure notifies its owner with the summary and labels the message', async () => {
    const { member, mailbox } = await newMemberWithMailbox('desk-errors@example.test');
    const alert = await install(member, 'alert-on-workflow-failures');
    const failingGraph: GraphInput = {
      nodes: [
        { id: 'start', type: 'trigger.mail', version: 1, name: 'Mail', params: { from: ['@client.test'] } },
        { id: 'answer', type: 'mail.draft', version: 1, name: 'Answer the client', params: { to: 'not an address', subject: 'x' } },
      ],
      connections: [{ from: 'start', output: 'main', to: 'answer' }],
    };
    const created = await call('POST', '/api/v1/workflows', { cookie: member.cookie, body: { name: 'Client desk', graph: failingGraph } });
    const failingId = created.body.workflow.id as string;
    expect((await call('POST', `/api/v1/workflows/${failingId}/publish`, { cookie: member.cookie, body: {} })).status).toBe(200);
    const patched = await call('PATCH', `/api/v1/workflows/${failingId}`, { cookie: member.cookie, body: { settings: { errorWorkflowId: alert.id } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    const message = await deliver(mailbox, { fromEmail: 'dan@client.test', subject: 'Help' });
    const failed = await waitForExecution((await runOf(failingId, { messageId: message.id })).id);
    expect(failed.status).toBe('failed');
    const alertRun = await db().execution.findFirstOrThrow({ where: { workflowId: alert.id } });
    const done = await waitForExecution(alertRun.id);
    expect(done.error).toBeNull();
    expect(stepsOf(done.steps)).toMatchObject({ notify: 'succeeded', 'has-message': 'succeeded', label: 'succeeded' });
    const notice = await db().notification.findFirstOrThrow({ where: { memberId: member.id, kind: 'workflow.notice' } });
    expect(notice.severity).toBe('error');
    expect(notice.params).toMatchObject({ title: 'Failed: Client desk', workflowId: alert.id });
    expect((notice.params as { body: string }).body).toMatch(/^Step “Answer the client” \(mail\.draft\) failed with invalid_parameter: /);
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).labels).toContain('Needs attention');
  });

  it('weekly-folder-review: the schedule task starts it on Monday 8:00 and it reminds the owner, naming the week', async () => {
    const member = await createMember();
    const workflow = await install(member, 'weekly-folder-review');
    const schedule = await db().workflowSchedule.findUniqueOrThrow({ where: { workflowId: workflow.id } });
    expect(schedule).toMatchObject({ cron: '0 8 * * 1', timeZone: 'Europe/Paris' });
    expect(schedule.nextRunAt.getUTCDay()).toBe(1);
    // Monday 23 November 2026, 8:00 in Paris, is due.
    await db().workflowSchedule.update({ where: { workflowId: workflow.id }, data: { nextRunAt: new Date('2026-11-23T07:00:00Z') } });
    expect(await startDueSchedules()).toBeGreaterThanOrEqual(1);
    const done = await waitForExecution((await runOf(workflow.id)).id);
    expect(done.error).toBeNull();
    const notice = await db().notification.findFirstOrThrow({ where: { memberId: member.id, kind: 'workflow.notice' } });
    expect(notice.params).toMatchObject({ title: 'Weekly review, week 48, 23 November 2026' });
  });

  it('out-of-hours-reply: Saturday mail gets a reply waiting for review; mail on a weekday at 11:00 gets none', async () => {
    const { member, mailbox } = await newMemberWithMailbox('desk-hours@example.test');
    const workflow = await install(member, 'out-of-hours-reply');
    const weekend = await deliver(mailbox, { fromEmail: 'eve@client.test', subject: 'Urgent order', receivedAt: new Date('2026-11-21T10:00:00Z') });
    const done = await waitForExecution((await runOf(workflow.id, { messageId: weekend.id })).id);
    expect(done.error).toBeNull();
    expect(stepsOf(done.steps)).toMatchObject({ 'out-of-hours': 'succeeded', reply: 'succeeded' });
    expect(await db().outboundMessage.findFirstOrThrow({ where: { executionId: done.id } })).toMatchObject({
      mode: 'send',
      reviewStatus: 'pending',
      toAddrs: ['eve@client.test'],
      subject: 'Re: Urgent order',
      relation: 'reply',
    });

    const late = await deliver(mailbox, { fromEmail: 'eve@client.test', subject: 'Late one', receivedAt: new Date('2026-11-24T19:30:00Z') });
    expect((await waitForExecution((await runOf(workflow.id, { messageId: late.id })).id)).status).toBe('succeeded');
    expect(await db().outboundMessage.count({ where: { relatedMessageId: late.id } })).toBe(1);

    const office = await deliver(mailbox, { fromEmail: 'eve@client.test', subject: 'Normal day', receivedAt: new Date('2026-11-24T10:00:00Z') });
    const quiet = await waitForExecution((await runOf(workflow.id, { messageId: office.id })).id);
    expect(quiet.status).toBe('succeeded');
    expect(stepsOf(quiet.steps)).toMatchObject({ reply: 'skipped' });
    expect(await db().outboundMessage.count({ where: { executionId: quiet.id } })).toBe(0);
  });

  it('flag-important-senders: mail from a listed sender is flagged and notified', async () => {
    const { member, mailbox } = await newMemberWithMailbox('desk-vip@example.test');
    const workflow = await install(member, 'flag-important-senders', { message: { from: ['@bigclient.test'] } });
    const message = await deliver(mailbox, { fromEmail: 'ceo@bigclient.test', fromName: 'Fran Boss', subject: 'Board meeting' });
    const done = await waitForExecution((await runOf(workflow.id, { messageId: message.id })).id);
    expect(done.error).toBeNull();
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).flagged).toBe(true);
    const notice = await db().notification.findFirstOrThrow({ where: { memberId: member.id, kind: 'workflow.notice' } });
    expect(notice).toMatchObject({ severity: 'warning', params: { title: 'Mail from Fran Boss', body: 'Board meeting' } });
  });

  it('tag-known-customers: a sender of the customers table gets the label and the thread signal; a stranger nothing', async () => {
    const table = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: 'Customers', columns: [{ label: 'Email', type: 'email', isKey: true }, { label: 'Name' }] } });
    expect(table.status, JSON.stringify(table.body)).toBe(201);
    const tableId = table.body.table.id as string;
    const row = await call('POST', `/api/v1/tables/${tableId}/rows`, { cookie: admin.cookie, body: { cells: { email: 'gina@customer.test', name: 'Gina' } } });
    expect(row.status, JSON.stringify(row.body)).toBe(201);
    const { member, mailbox } = await newMemberWithMailbox('desk-customers@example.test');
    const workflow = await install(member, 'tag-known-customers', { lookup: { tableId } });

    const known = await deliver(mailbox, { fromEmail: 'Gina@Customer.test', subject: 'Reorder' });
    const done = await waitForExecution((await runOf(workflow.id, { messageId: known.id })).id);
    expect(done.error).toBeNull();
    expect(stepsOf(done.steps)).toMatchObject({ label: 'succeeded', signal: 'succeeded' });
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: known.id } })).labels).toContain('Customer');
    expect(await db().messageSignal.findMany({ where: { messageId: known.id } })).toMatchObject([{ name: 'customer', threadId: known.threadId }]);

    const stranger = await deliver(mailbox, { fromEmail: 'hal@elsewhere.test', subject: 'Offer' });
    const quiet = await waitForExecution((await runOf(workflow.id, { messageId: stranger.id })).id);
    expect(quiet.status).toBe('succeeded');
    expect(stepsOf(quiet.steps)).toMatchObject({ label: 'skipped', signal: 'skipped' });
    expect(await db().messageSignal.count({ where: { messageId: stranger.id } })).toBe(0);
  });

  it('every starter in the catalogue has a run test above', () => {
    const tested = ['tag-known-customers', 'label-and-archive-newsletters', 'follow-up-after-three-days', 'extract-invoices-into-a-table', 'approve-before-answering', 'forward-webhook-events-as-mail', 'alert-on-workflow-failures', 'weekly-folder-review', 'out-of-hours-reply', 'flag-important-senders'];
    expect(starterTemplates.map((template) => template.slug).sort()).toEqual(tested.sort());
  });
});
