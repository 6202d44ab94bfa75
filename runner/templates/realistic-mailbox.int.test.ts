/**
 * Starter templates proven on a realistic mailbox (issue 19 §2): a Dovecot mailbox receives the
 * real-world corpus (server/testing/mail-corpus: newsletters from six sending platforms, most of whose
 * senders do not say "newsletter", an invoice with a PDF, personal threads, out-of-office replies,
 * bounces, read receipts, calendar mail, list discussions, no-reply receipts). A member installs each
 * mail-triggered starter template through the install route, fills what its note asks in the draft
 * graph, creates the table its card asks for, and publishes. The mail then arrives by IMAP APPEND and
 * the runner does the rest as it does live: a mail supervisor holds the mailbox (first sync, the IDLE
 * watch that sees the new mail, the operations written back) and the worker runs every task of
 * runner/tasks (sync, dispatch, execution, apply operations, the send). What happened is checked on
 * the server (IMAP keywords, flags, folders; the SMTP peer) and in the product (runs, the journal,
 * table rows, Review).
 */
import { randomUUID } from 'node:crypto';
import { run, type Runner } from 'graphile-worker';
import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { closeExpressionSandbox, startExpressionSandbox } from '../../server/engine/expressions/sandbox';
import { wakeExecution } from '../../server/engine/run/lease';
import { sweepExecutions } from '../../server/engine/run/sweeper';
import { starterTemplates } from '../../server/domains/templates/starter';
import { createMember, type TestMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { corpusMessage } from '../../server/testing/mail-corpus';
import { openTestImap } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '../../server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '../../server/testing/mail-servers/smtp';
import { call } from '../../server/testing/rest-client';
import { useTestDatabase } from '../../server/testing/test-database';
import { graphileLogger } from '../graphile-logger';
import { dispatchMailWork, setMailSupervisor } from '../mail/dispatch';
import { MailSupervisor } from '../mail/supervisor';
import { taskList } from '../tasks';
import { waitForExecution } from '../engine/testing/engine-worker';
import { syncStarterTemplates } from './sync-starter';

const connectionString = await useTestDatabase();

let dovecot: DovecotServer;
let smtp: TestSmtpServer;
let worker: Runner;
let mail: MailSupervisor;
let sweeping: NodeJS.Timeout;
let member: TestMember;
let user: MailUser;
let mailboxId: string;
/** Workflow ids by template slug. */
const workflows: Record<string, string> = {};
/** Mirrored message ids by corpus name. */
const messages: Record<string, string> = {};

/** The corpus the mailbox receives, and when (Paris time matters to the out-of-hours template). */
const weekday = (hourUtc: number, minute = 0) => new Date(Date.UTC(2025, 2, 4, hourUtc, minute)); // Tuesday 4 March 2025
const saturday = new Date(Date.UTC(2025, 2, 8, 10, 0));
const delivered: Record<string, Date> = {
  'mailchimp-newsletter': weekday(9, 1),
  'sendgrid-newsletter': weekday(9, 2),
  'amazon-ses-newsletter': weekday(9, 3),
  'substack-newsletter': weekday(9, 4),
  'hubspot-newsletter': weekday(9, 5),
  'salesforce-marketing-cloud-newsletter': weekday(9, 6),
  'invoice-with-pdf': weekday(9, 10),
  'no-reply-receipt': weekday(9, 11),
  // Written to the atelier on a Saturday: a friend, and a meeting accepted.
  'personal-mail': saturday,
  'reply-in-thread': weekday(9, 21),
  'forwarded-by-exchange-rule': weekday(9, 22),
  'outlook-meeting-request': weekday(9, 23),
  'exchange-online-automatic-reply': weekday(9, 30),
  'gmail-vacation-responder': weekday(9, 31),
  'zimbra-out-of-office': weekday(9, 32),
  'postfix-bounce': weekday(9, 33),
  'exim-bounce': weekday(9, 34),
  'mdn-read-receipt': weekday(9, 35),
  'github-notification': weekday(9, 40),
  'mailman-list-reply': weekday(9, 41),
  'google-groups-reply': weekday(9, 42),
  'jira-notification': weekday(9, 43),
  'zendesk-agent-reply': weekday(9, 44),
  'google-calendar-invitation': weekday(9, 45),
  'outlook-meeting-accepted': new Date(saturday.getTime() + 60_000),
};

const newsletters = ['mailchimp-newsletter', 'sendgrid-newsletter', 'amazon-ses-newsletter', 'substack-newsletter', 'hubspot-newsletter', 'salesforce-marketing-cloud-newsletter'];

/** What a member sets after installing, as each template's note asks (node id → parameters). */
const fills: Record<string, Record<string, Record<string, unknown>>> = {
  'label-and-archive-newsletters': {},
  'extract-invoices-into-a-table': {},
  'follow-up-after-three-days': { message: { from: ['amaia.diallo@gmail.com'] } },
  'approve-before-answering': { message: { from: ['@fournisseur-bois.example'] }, approval: { approverEmails: ['associee@atelier-lumiere.example'] } },
  'flag-important-senders': { message: { from: ['@musee-regional.example'] } },
  'tag-known-customers': {},
  'out-of-hours-reply': {},
};

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function install(slug: string) {
  const template = await db().template.findUniqueOrThrow({ where: { slug } });
  // A template that needs a table uses the team's table of that name (its card lists the columns; the install checks them).
  const tables = (starterTemplates.find((starter) => starter.slug === slug)!.tables ?? []).map((table) => ({ slug: table.slug, use: 'existing', tableId: table.slug }));
  const installed = await call('POST', `/api/v1/templates/${template.id}/install`, { cookie: member.cookie, body: tables.length ? { tables } : {} });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  const id = installed.body.workflowId as string;
  const read = await call('GET', `/api/v1/workflows/${id}`, { cookie: member.cookie });
  const graph = read.body.workflow.graph as { nodes: { id: string; params: Record<string, unknown> }[] };
  for (const node of graph.nodes) if (fills[slug]![node.id]) node.params = { ...node.params, ...fills[slug]![node.id] };
  const saved = await call('PUT', `/api/v1/workflows/${id}/graph`, { cookie: member.cookie, body: { graph } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const published = await call('POST', `/api/v1/workflows/${id}/publish`, { cookie: member.cookie, body: {} });
  expect(published.status, `${slug}: ${JSON.stringify(published.body)}`).toBe(200);
  workflows[slug] = id;
}

async function withImap<T>(use: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = await openTestImap({ server: dovecot, ...user });
  try {
    return await use(client);
  } finally {
    await client.logout();
  }
}

/** The corpus message as the server holds it now: its folder and flags (found by Message-ID). */
async function onServer(name: string) {
  const messageId = /^Message-ID:\s*(<[^>]+>)/im.exec(corpusMessage(name).toString('utf8'))![1]!;
  return withImap(async (client) => {
    for (const folder of ['INBOX', 'Archive']) {
      const lock = await client.getMailboxLock(folder);
      try {
        const uids = await client.search({ header: { 'message-id': messageId } }, { uid: true });
        if (uids && uids.length) {
          const found = await client.fetchOne(String(uids[0]), { flags: true }, { uid: true });
          return { folder, flags: [...((found && found.flags) || [])].sort() };
        }
      } finally {
        lock.release();
      }
    }
    return { folder: null, flags: [] as string[] };
  });
}

async function runsOf(slug: string, name: string) {
  return db().execution.findMany({ where: { workflowId: workflows[slug], messageId: messages[name] }, include: { steps: true } });
}

const stepsOf = (steps: { nodeId: string; status: string }[]) => Object.fromEntries(steps.map((step) => [step.nodeId, step.status]));

/** Every run of the member settled (no run queued or running; waiting ones wait for a person or a timer). */
async function settled() {
  await waitFor('every run settled', async () => (await db().execution.count({ where: { memberId: member.id, status: { in: ['queued', 'running'] } } })) === 0);
  await waitFor('every mail operation applied', async () => (await db().mailOperation.count({ where: { mailboxId, status: 'pending' } })) === 0).catch(async (error: Error) => {
    const pending = await db().mailOperation.findMany({ where: { mailboxId, status: 'pending' }, select: { action: true, attempts: true, lastError: true } });
    const jobs = await db().$queryRaw`SELECT t.identifier, j.attempts, j.last_error, j.locked_at, j.run_at FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id`;
    throw new Error(`${error.message}: ${JSON.stringify({ pending: pending.slice(0, 5), jobs }, null, 1)}`);
  });
}

beforeAll(async () => {
  dovecot = await startDovecot({ users: [] });
  user = { user: `atelier-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
  await dovecot.addUser(user);
  smtp = await startSmtpServer({ users: [user] });
  worker = await run({
    connectionString,
    taskList,
    logger: graphileLogger,
    noHandleSignals: true,
    preset: { worker: { concurrentJobs: 4, pollInterval: 100, completeJobBatchDelay: -1, failJobBatchDelay: -1 } },
  });
  sweeping = setInterval(() => void sweepExecutions().catch(() => {}), 500);
  // As the runner does: expressions on their own threads, away from the mail sync's parsing on this one.
  startExpressionSandbox();

  await syncStarterTemplates();
  member = await createMember();
  const mailbox = await createImapMailbox(member, dovecot, user, { address: 'claire@atelier-lumiere.example' });
  mailboxId = mailbox.id;
  await db().mailbox.update({ where: { id: mailboxId }, data: { settings: { ...(mailbox.settings as object), smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false } } });
  // As the runner does: a mail supervisor holds the mailbox (sync, IDLE watch, the operations written back).
  mail = new MailSupervisor({ renewMs: 500, ttlMs: 2_000, scanMs: 200, liveMs: 1_500 });
  setMailSupervisor(mail);
  await mail.start();
  // The first sync (an empty inbox) and an open watch: what arrives after it is new mail.
  const held = await waitFor('the first sync and an open watch', async () => {
    const candidate = mail.worker(mailboxId);
    return candidate && candidate.runs > 0 && candidate.watched ? candidate : null;
  });
  await held.idle();

  // The tables the cards ask for, created by an administrator (tables are the team's; the customers table with one customer).
  const admin = await createMember({ role: 'admin' });
  const invoices = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: {
      name: 'Invoices',
      columns: [{ label: 'Invoice', isKey: true }, { label: 'Sender', type: 'email' }, { label: 'Subject' }, { label: 'Received at', type: 'datetime' }, { label: 'Amount', type: 'number' }],
    },
  });
  expect(invoices.status, JSON.stringify(invoices.body)).toBe(201);
  const customers = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: 'Customers', columns: [{ label: 'Email', type: 'email', isKey: true }, { label: 'Name' }] } });
  expect(customers.status, JSON.stringify(customers.body)).toBe(201);
  const row = await call('POST', `/api/v1/tables/${customers.body.table.id}/rows`, { cookie: member.cookie, body: { cells: { email: 'lucie.faure@client-fidele.example', name: 'Lucie Faure' } } });
  expect(row.status, JSON.stringify(row.body)).toBe(201);

  for (const slug of Object.keys(fills)) await install(slug);

  // The mail arrives on the server, then the mailbox syncs as its watch would ask.
  await withImap(async (client) => {
    for (const [name, at] of Object.entries(delivered)) await client.append('INBOX', corpusMessage(name), [], at);
  });
  // The IDLE watch sees them and asks for a sync; a mail.sync job asks too (as a manual refresh would), so
  // this test does not depend on the watch's timing (runner/mail/idle-delivery.int.test.ts proves that).
  await dispatchMailWork(mailboxId, { delta: 'inbox' });
  await waitFor('every message mirrored', async () => (await db().mailMessage.count({ where: { mailboxId } })) >= Object.keys(delivered).length);
  const rows = await db().mailMessage.findMany({ where: { mailboxId }, select: { id: true, messageIdHeader: true } });
  for (const name of Object.keys(delivered)) {
    const header = /^Message-ID:\s*(<[^>]+>)/im.exec(corpusMessage(name).toString('utf8'))![1]!;
    const found = rows.find((candidate) => candidate.messageIdHeader === header || `<${candidate.messageIdHeader}>` === header);
    expect(found, `${name} mirrored`).toBeDefined();
    messages[name] = found!.id;
  }
  await waitFor('every message dispatched', async () => (await db().mailJournalEntry.count({ where: { messageId: { in: Object.values(messages) } } })) === Object.keys(delivered).length);
  await settled();
}, 240_000);

afterAll(async () => {
  clearInterval(sweeping);
  setMailSupervisor(null);
  await mail?.stop();
  await worker?.stop();
  await closeExpressionSandbox();
  await smtp?.stop();
  await dovecot?.stop();
});

describe('starter templates on a realistic mailbox', () => {
  it('label-and-archive-newsletters: every newsletter, whatever its sender’s address, is labelled, read and archived on the server; discussion lists, notifications and people stay in the inbox', async () => {
    for (const name of newsletters) {
      const runs = await runsOf('label-and-archive-newsletters', name);
      expect(runs.map((execution) => execution.status), name).toEqual(['succeeded']);
      expect(await onServer(name), name).toEqual({ folder: 'Archive', flags: expect.arrayContaining(['Newsletters', '\\Seen']) });
    }
    for (const name of ['github-notification', 'mailman-list-reply', 'google-groups-reply', 'personal-mail', 'no-reply-receipt', 'invoice-with-pdf']) {
      expect(await runsOf('label-and-archive-newsletters', name), name).toEqual([]);
      const server = await onServer(name);
      expect(server.folder, name).toBe('INBOX');
      expect(server.flags, name).not.toContain('Newsletters');
    }
  });

  it('extract-invoices-into-a-table: the invoice with its PDF becomes a row whose amount is a number; the message is labelled Invoices on the server', async () => {
    const [execution] = await runsOf('extract-invoices-into-a-table', 'invoice-with-pdf');
    expect(execution?.error ?? null).toBeNull();
    expect(execution?.status).toBe('succeeded');
    const table = await db().dataTable.findFirstOrThrow({ where: { slug: 'invoices' } });
    const rows = await db().tableRow.findMany({ where: { tableId: table.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.cells).toMatchObject({ invoice: 'F-2025-0312', sender: 'facturation@imprimerie-vidal.example', subject: 'Facture F-2025-0312', amount: 87.4 });
    expect((await onServer('invoice-with-pdf')).flags).toContain('Invoices');
    // A bounce quoting an invoice reminder and an order receipt are not invoices.
    for (const name of ['exim-bounce', 'no-reply-receipt']) expect(await runsOf('extract-invoices-into-a-table', name), name).toEqual([]);
  });

  it('approve-before-answering: the supplier’s reply asks for approval; their out-of-office reply does not', async () => {
    const [execution] = await runsOf('approve-before-answering', 'reply-in-thread');
    expect(execution?.status).toBe('waiting');
    const approval = await db().approval.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: execution!.id, nodeId: 'approval' } } });
    expect(approval.status).toBe('pending');
    expect(approval.approverEmails).toEqual(['associee@atelier-lumiere.example']);
    expect(await runsOf('approve-before-answering', 'exchange-online-automatic-reply')).toEqual([]);
    const journal = await db().mailJournalEntry.findUniqueOrThrow({ where: { messageId: messages['exchange-online-automatic-reply'] } });
    expect(journal).toMatchObject({ outcome: 'guardrail', ruleRef: 'guardrail:auto_reply' });
  });

  it('follow-up-after-three-days: the contact’s message waits three business days for them to write again; unanswered by you, it reminds you and drafts nothing', async () => {
    const [execution] = await runsOf('follow-up-after-three-days', 'personal-mail');
    expect(execution?.status).toBe('waiting');
    expect(await db().executionReplyWait.count({ where: { executionId: execution!.id } })).toBe(1);
    const past = new Date(Date.now() - 1_000);
    const step = await db().executionStep.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: execution!.id, nodeId: 'wait' } } });
    await db().executionStep.update({ where: { id: step.id }, data: { state: { ...(step.state as object), until: past.toISOString() } } });
    await db().execution.update({ where: { id: execution!.id }, data: { waitUntil: past } });
    await wakeExecution(execution!.id);
    const done = await waitForExecution(execution!.id);
    expect(done.status).toBe('succeeded');
    expect(stepsOf(done.steps)).toMatchObject({ wait: 'succeeded', thread: 'succeeded', answered: 'succeeded', remind: 'succeeded', draft: 'skipped' });
    expect(await db().outboundMessage.count({ where: { executionId: execution!.id } })).toBe(0);
    // The drafted follow-up (your answer is the last message) and the reply that ends the wait: starter/follow-up-template.int.test.ts.
  });

  it('flag-important-senders: the museum’s invitation is flagged on the server and notified', async () => {
    expect((await runsOf('flag-important-senders', 'outlook-meeting-request')).map((execution) => execution.status)).toEqual(['succeeded']);
    expect((await onServer('outlook-meeting-request')).flags).toContain('\\Flagged');
    expect(await db().notification.count({ where: { memberId: member.id, kind: 'workflow.notice', severity: 'warning' } })).toBeGreaterThanOrEqual(1);
    expect((await onServer('personal-mail')).flags).not.toContain('\\Flagged');
  });

  it('tag-known-customers: the customer’s forwarded order is labelled Customer on the server; a stranger is not', async () => {
    const [known] = await runsOf('tag-known-customers', 'forwarded-by-exchange-rule');
    expect(stepsOf(known!.steps)).toMatchObject({ label: 'succeeded', signal: 'succeeded' });
    expect((await onServer('forwarded-by-exchange-rule')).flags).toContain('Customer');
    const [stranger] = await runsOf('tag-known-customers', 'personal-mail');
    expect(stepsOf(stranger!.steps)).toMatchObject({ label: 'skipped', signal: 'skipped' });
    expect((await onServer('personal-mail')).flags).not.toContain('Customer');
  });

  it('out-of-hours-reply: the friend’s Saturday mail gets a reply in Review that leaves the SMTP server once sent; a meeting accepted on Saturday, weekday mail, auto-replies and bounces get none', async () => {
    const [weekend] = await runsOf('out-of-hours-reply', 'personal-mail');
    expect(stepsOf(weekend!.steps)).toMatchObject({ reply: 'succeeded' });
    const item = await db().outboundMessage.findFirstOrThrow({ where: { executionId: weekend!.id } });
    expect(item).toMatchObject({ reviewStatus: 'pending', toAddrs: ['amaia.diallo@gmail.com'], relation: 'reply' });
    const sent = await call('POST', `/api/v1/review/${item.id}/send`, { cookie: member.cookie, body: { clientToken: 'send-out-of-hours-reply' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const to = (address: string) => smtp.messages.filter((message) => message.rcptTo.includes(address));
    await waitFor('the reply on the SMTP server', async () => to('amaia.diallo@gmail.com').length > 0);
    const [message] = to('amaia.diallo@gmail.com');
    expect(message!.rcptTo).toEqual(['amaia.diallo@gmail.com']);
    expect(message!.raw.toString('utf8')).toMatch(/^In-Reply-To:\s+<[^>]+>/m);

    const [calendar] = await runsOf('out-of-hours-reply', 'outlook-meeting-accepted');
    expect(stepsOf(calendar!.steps)).toMatchObject({ person: 'succeeded', reply: 'skipped' });
    const [weekday] = await runsOf('out-of-hours-reply', 'reply-in-thread');
    expect(stepsOf(weekday!.steps)).toMatchObject({ reply: 'skipped' });
    for (const name of ['exchange-online-automatic-reply', 'postfix-bounce', 'mdn-read-receipt', 'mailchimp-newsletter', 'no-reply-receipt']) {
      expect(await runsOf('out-of-hours-reply', name), name).toEqual([]);
    }
    // Once, and nothing else to a sender of the corpus (the other message out is the approval request to the colleague).
    expect(to('amaia.diallo@gmail.com')).toHaveLength(1);
    expect(smtp.messages.flatMap((sent) => sent.rcptTo).sort()).toEqual(['amaia.diallo@gmail.com', 'associee@atelier-lumiere.example']);
  });

  it('the journal says what happened to each message: guardrails for automatic mail, dispatched for the rest', async () => {
    const outcome = async (name: string) => (await db().mailJournalEntry.findUniqueOrThrow({ where: { messageId: messages[name] } })).outcome;
    for (const name of ['postfix-bounce', 'exim-bounce', 'mdn-read-receipt', 'gmail-vacation-responder', 'zimbra-out-of-office', 'jira-notification']) expect(await outcome(name), name).toBe('guardrail');
    for (const name of [...newsletters, 'invoice-with-pdf', 'personal-mail', 'reply-in-thread']) expect(await outcome(name), name).toBe('dispatched');
  });
});
