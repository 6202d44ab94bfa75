/**
 * Test runs that tell the truth (issue 19 §4): a simulated effect checks everything it can without
 * acting, so a graph that fails live fails in its test run with the same code, message and details,
 * and the message names the column, folder or field concerned. Each case runs the same published
 * version twice through the real engine, live and as a test run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let admin: TestMember;
let member: TestMember;
let mailbox: { id: string; address: string };
let invoices: { id: string };

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  mailbox = await createMailbox(member, { address: 'desk@example.test' });
  const created = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: {
      name: 'Invoices',
      columns: [
        { label: 'Invoice', key: 'invoice', isKey: true },
        { label: 'Amount', key: 'amount', type: 'number' },
        { label: 'Supplier', key: 'supplier', type: 'email' },
      ],
    },
  });
  expect(created.status).toBe(201);
  invoices = created.body.table;
});
afterAll(async () => {
  await worker?.stop();
});

const webhook = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const step = (type: string, params: Record<string, unknown>) => ({ id: 'act', type, version: 1, name: 'Act', params });
const graphOf = (node: ReturnType<typeof step>): GraphInput => ({ nodes: [webhook, node], connections: [{ from: 'start', output: 'main', to: 'act' }] });

/**
 * The same version run as a test run, then live; both finished. The test run goes first and ends
 * before the live one starts: it checks against the table as it is, so a live insert finished
 * before it would (rightly) make it fail on the key the live run just wrote.
 */
async function liveAndTest(graph: GraphInput) {
  const { workflow, version } = await createWorkflow(member, { graph, name: 'Invoice desk' });
  const run = async (simulated: boolean) => {
    const started = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, simulated, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
    return waitForExecution(started.id);
  };
  const test = await run(true);
  const live = await run(false);
  return { live, test };
}

const stepError = (execution: Awaited<ReturnType<typeof waitForExecution>>) => execution.steps.find((candidate) => candidate.nodeId === 'act')!.error as Record<string, unknown> | null;

/** Both runs failed at the step with the same code, message and details; answers that error. */
function sameFailure(runs: Awaited<ReturnType<typeof liveAndTest>>) {
  expect(runs.live.status).toBe('failed');
  expect(runs.test.status).toBe('failed');
  const live = stepError(runs.live)!;
  const test = stepError(runs.test)!;
  expect({ code: test.code, message: test.message, details: test.details }).toEqual({ code: live.code, message: live.message, details: live.details });
  expect(runs.test.error).toMatchObject({ code: live.code, message: live.message });
  return live as { code: string; message: string; details: Record<string, unknown> };
}

describe('table writes', () => {
  it('numbers as people write them: "EUR 87.40" fits a number column, live (stored 87.4) and in a test run (shown as 87.4)', async () => {
    const runs = await liveAndTest(graphOf(step('tables.insert', { tableId: invoices.id, cells: { invoice: 'INV-1', amount: 'EUR 87.40' } })));
    expect(runs.live.status).toBe('succeeded');
    expect(runs.test.status).toBe('succeeded');
    const row = await db().tableRow.findFirstOrThrow({ where: { tableId: invoices.id, keyValue: 'INV-1' } });
    expect(row.cells).toEqual({ invoice: 'INV-1', amount: 87.4 });
    expect(runs.test.steps.find((candidate) => candidate.nodeId === 'act')!.data).toMatchObject({ row: null, simulated: true, cells: { invoice: 'INV-1', amount: 87.4 } });
  });

  it('a cell that does not fit fails the test run as it fails live: tables.write_refused naming the column, the value and why', async () => {
    const runs = await liveAndTest(graphOf(step('tables.insert', { tableId: invoices.id, cells: { invoice: 'INV-2', amount: 'about 87 euros' } })));
    const error = sameFailure(runs);
    expect(error.code).toBe('tables.write_refused');
    expect(error.message).toBe('Column “Amount” (amount, number): “about 87 euros” is not a number.');
    expect(error.details).toMatchObject({ code: 'tables.invalid_cells', column: 'amount', problems: [{ column: 'amount', reason: 'wrong_type', value: 'about 87 euros' }] });
    // The live run's incident says the same, so nobody has to open the run to know which column.
    const incident = await db().incident.findUniqueOrThrow({ where: { executionId: runs.live.id } });
    expect(incident.errorSummary).toContain('tables.write_refused: Column “Amount” (amount, number): “about 87 euros” is not a number.');
    expect(await db().incident.count({ where: { executionId: runs.test.id } })).toBe(0);
    expect(await db().tableRow.count({ where: { tableId: invoices.id, keyValue: 'INV-2' } })).toBe(0);
  });

  it('an ambiguous amount ("1,234") is refused in both, naming both readings', async () => {
    const error = sameFailure(await liveAndTest(graphOf(step('tables.upsert', { tableId: invoices.id, cells: { invoice: 'INV-3', amount: '1,234' } }))));
    expect(error).toMatchObject({ code: 'tables.write_refused', details: { column: 'amount', problems: [{ reason: 'ambiguous_number' }] } });
    expect(error.message).toContain('“1,234” is ambiguous (1234 or 1.234)');
  });

  it('an update of a row that is not there, and a table that is not there, fail the test run too', async () => {
    const missingRow = sameFailure(
      await liveAndTest(graphOf(step('tables.update', { tableId: invoices.id, rowId: '00000000-0000-4000-8000-000000000000', cells: { amount: 1 } }))),
    );
    expect(missingRow).toMatchObject({ code: 'tables.write_refused', details: { code: 'tables.row_not_found' } });
    expect(missingRow.message).toBe('No row “00000000-0000-4000-8000-000000000000” in this table.');
    const missingTable = sameFailure(await liveAndTest(graphOf(step('tables.insert', { tableId: 'no-such-table', cells: { invoice: 'X' } }))));
    expect(missingTable).toMatchObject({ code: 'tables.not_found', message: 'No table “no-such-table”: it was deleted, or the id is wrong.' });
  });
});

describe('mail actions', () => {
  it('a move to a folder the mailbox does not have fails the test run as live, naming the folder', async () => {
    const message = await createMessage(mailbox, { subject: 'Invoice 12' });
    const error = sameFailure(await liveAndTest(graphOf(step('mail.move', { messageId: message.id, folder: 'Invoices' }))));
    expect(error).toMatchObject({ code: 'invalid_parameter', message: 'params.folder: the message’s mailbox has no folder “Invoices”.', details: { path: 'params.folder', reason: 'unknown_folder' } });
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).folderKey).toBe('INBOX');
  });

  it('a message that is not the member’s, or whose mailbox is disconnected, fails the test run as live', async () => {
    const stranger = await createMember();
    const theirs = await createMessage(await createMailbox(stranger), { subject: 'Not yours' });
    const notTheirs = sameFailure(await liveAndTest(graphOf(step('mail.flag', { messageId: theirs.id }))));
    expect(notTheirs).toMatchObject({ code: 'mail.message_not_found', details: { path: 'params.messageId' } });
    expect(notTheirs.message).toContain(theirs.id);
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: theirs.id } })).flagged).toBe(false);

    const offline = await createMessage(await createMailbox(member, { status: 'disconnected' }));
    expect(sameFailure(await liveAndTest(graphOf(step('mail.mark_read', { messageId: offline.id }))))).toMatchObject({ code: 'mail.mailbox_not_active' });
    expect(sameFailure(await liveAndTest(graphOf(step('mail.label', { messageId: offline.id, add: ['Paid'] }))))).toMatchObject({ code: 'mail.mailbox_not_active' });
  });
});

describe('drafts and sends', () => {
  it('a reply whose recipient, taken from the message answered, is not an address fails the test run as live, naming the field', async () => {
    const message = await createMessage(mailbox, { subject: 'Hi', fromEmail: 'undisclosed-recipients' });
    const error = sameFailure(await liveAndTest(graphOf(step('mail.draft', { replyTo: { messageId: message.id }, bodyText: 'Thanks' }))));
    expect(error).toMatchObject({
      code: 'invalid_parameter',
      message: 'params.to: not an e-mail address (taken from the message answered): undisclosed-recipients',
      details: { path: 'params.to', reason: 'invalid_address' },
    });
    expect(await db().outboundMessage.count({ where: { memberId: member.id } })).toBe(0);
  });
});
