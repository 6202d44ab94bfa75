/**
 * A template that needs a table says so (issue 19 §2): its card lists the table with its columns and
 * their types, and installing it creates that table or uses an existing one whose columns fit, the
 * template's steps then naming the chosen table. A table that does not fit is refused with a catalogue
 * error naming the column.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { storedGraphInput } from '../workflows/schemas';
import { templateFactsOf } from './derive';
import { starterTemplates } from './starter';

await useTestDatabase();

let member: TestMember;
let admin: TestMember;
let invoicesTemplateId: string;

const invoices = starterTemplates.find((template) => template.slug === 'extract-invoices-into-a-table')!;

beforeAll(async () => {
  member = await createMember();
  admin = await createMember({ role: 'admin' });
  // The starter as the runner's sync stores it.
  const graph = storedGraphInput.parse(invoices.graph);
  const row = await db().template.create({
    data: { slug: invoices.slug, name: invoices.name, description: invoices.description, category: invoices.category, graph: graph as object, ...templateFactsOf(graph) },
  });
  invoicesTemplateId = row.id;
});

async function createTable(name: string, columns: Record<string, unknown>[]) {
  const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name, columns } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.table as { id: string; slug: string };
}

async function saveStepTableId(workflowId: string) {
  const workflow = await call('GET', `/api/v1/workflows/${workflowId}`, { cookie: admin.cookie });
  const read = workflow.status === 200 ? workflow : await call('GET', `/api/v1/workflows/${workflowId}`, { cookie: member.cookie });
  return (read.body.workflow.graph.nodes as { id: string; params: { tableId?: string } }[]).find((node) => node.id === 'save')!.params.tableId;
}

const install = (who: TestMember, body: Record<string, unknown>) => call('POST', `/api/v1/templates/${invoicesTemplateId}/install`, { cookie: who.cookie, body });

describe('a template that needs a table', () => {
  it('says so on its card: the table, its columns and their types', async () => {
    const list = await call('GET', '/api/v1/templates', { cookie: member.cookie });
    const card = (list.body.templates as { id: string; tables: unknown[] }[]).find((template) => template.id === invoicesTemplateId)!;
    expect(card.tables).toEqual([
      {
        slug: 'invoices',
        name: 'Invoices',
        description: expect.any(String),
        columns: [
          { key: 'invoice', label: 'Invoice', type: 'text', isKey: true, alsoFits: [], optional: false },
          { key: 'sender', label: 'Sender', type: 'email', isKey: false, alsoFits: ['text'], optional: false },
          { key: 'subject', label: 'Subject', type: 'text', isKey: false, alsoFits: [], optional: false },
          { key: 'received_at', label: 'Received at', type: 'datetime', isKey: false, alsoFits: ['text'], optional: false },
          { key: 'amount', label: 'Amount', type: 'number', isKey: false, alsoFits: ['text'], optional: false },
        ],
      },
    ]);
    const read = await call('GET', `/api/v1/templates/${invoicesTemplateId}`, { cookie: member.cookie });
    expect(read.body.template.tables).toEqual(card.tables);
  });

  it('install creates the table with those columns (administrator) and the step names it', async () => {
    const installed = await install(admin, { tables: [{ slug: 'invoices', use: 'create' }] });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const tableId = await saveStepTableId(installed.body.workflowId);
    const table = await db().dataTable.findUniqueOrThrow({ where: { id: tableId } });
    expect(table.name).toBe('Invoices');
    expect((table.columns as { key: string; type: string; isKey: boolean }[]).map(({ key, type, isKey }) => ({ key, type, isKey }))).toEqual([
      { key: 'invoice', type: 'text', isKey: true },
      { key: 'sender', type: 'email', isKey: false },
      { key: 'subject', type: 'text', isKey: false },
      { key: 'received_at', type: 'datetime', isKey: false },
      { key: 'amount', type: 'number', isKey: false },
    ]);
    expect(await db().auditEntry.count({ where: { action: 'table.created', targetId: tableId } })).toBe(1);
  });

  it('a member cannot create a table: 403 auth.forbidden, nothing created', async () => {
    const tables = await db().dataTable.count();
    const workflows = await db().workflow.count({ where: { memberId: member.id } });
    const refused = await install(member, { tables: [{ slug: 'invoices', use: 'create' }] });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('auth.forbidden');
    expect(await db().dataTable.count()).toBe(tables);
    expect(await db().workflow.count({ where: { memberId: member.id } })).toBe(workflows);
  });

  it('install uses an existing table whose columns fit (text where the template writes a number or a date fits)', async () => {
    const table = await createTable('Factures', [
      { key: 'invoice', label: 'Invoice', isKey: true },
      { key: 'sender', label: 'Sender' },
      { key: 'subject', label: 'Subject' },
      { key: 'received_at', label: 'Received', type: 'datetime' },
      { key: 'amount', label: 'Amount' },
      { key: 'paid', label: 'Paid', type: 'boolean' },
    ]);
    const installed = await install(member, { tables: [{ slug: 'invoices', use: 'existing', tableId: table.slug }] });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    expect(await saveStepTableId(installed.body.workflowId)).toBe(table.id);
  });

  it('409 templates.table_mismatch naming the column that does not fit; nothing installed', async () => {
    const wrongType = await createTable('Bills', [
      { key: 'invoice', label: 'Invoice', isKey: true },
      { key: 'sender', label: 'Sender', type: 'email' },
      { key: 'subject', label: 'Subject' },
      { key: 'received_at', label: 'Received at', type: 'datetime' },
      { key: 'amount', label: 'Amount', type: 'date' },
    ]);
    const missing = await createTable('Receipts', [{ key: 'invoice', label: 'Invoice', isKey: true }, { key: 'sender', label: 'Sender' }]);
    const notKey = await createTable('Loose invoices', [
      { key: 'id', label: 'Id', isKey: true },
      { key: 'invoice', label: 'Invoice' },
      { key: 'sender', label: 'Sender' },
      { key: 'subject', label: 'Subject' },
      { key: 'received_at', label: 'Received at' },
      { key: 'amount', label: 'Amount', type: 'number' },
    ]);
    const before = (await db().template.findUniqueOrThrow({ where: { id: invoicesTemplateId } })).installCount;
    const workflows = await db().workflow.count({ where: { memberId: member.id } });

    const typed = await install(member, { tables: [{ slug: 'invoices', use: 'existing', tableId: wrongType.id }] });
    expect(typed.status).toBe(409);
    expect(typed.body.error.code).toBe('templates.table_mismatch');
    expect(typed.body.error.details).toEqual({ table: wrongType.slug, column: 'amount', reason: 'wrong_type', expected: ['number', 'text'], actual: 'date' });
    expect(typed.body.error.message).toBe('Column “Amount” (amount) of table “Bills” holds a date; the template writes a number or text there.');

    const absent = await install(member, { tables: [{ slug: 'invoices', use: 'existing', tableId: missing.id }] });
    expect(absent.status).toBe(409);
    expect(absent.body.error.details).toMatchObject({ column: 'subject', reason: 'missing' });
    expect(absent.body.error.message).toContain('has no column “Subject”');

    const key = await install(member, { tables: [{ slug: 'invoices', use: 'existing', tableId: notKey.id }] });
    expect(key.status).toBe(409);
    expect(key.body.error.details).toMatchObject({ column: 'invoice', reason: 'not_key' });

    expect((await db().template.findUniqueOrThrow({ where: { id: invoicesTemplateId } })).installCount).toBe(before);
    expect(await db().workflow.count({ where: { memberId: member.id } })).toBe(workflows);
  });

  it('an unknown table is 404 tables.not_found; a table the template does not have is 400', async () => {
    const unknown = await install(member, { tables: [{ slug: 'invoices', use: 'existing', tableId: 'no-such-table' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('tables.not_found');
    for (const tables of [[{ slug: 'orders', use: 'create' }], [{ slug: 'invoices', use: 'existing' }], [{ slug: 'invoices', use: 'sometimes' }]]) {
      const response = await install(admin, { tables });
      expect(response.status, JSON.stringify(tables)).toBe(400);
    }
  });

  it('without a choice the template installs as shipped (its step names the table by the template’s slug)', async () => {
    const installed = await install(member, {});
    expect(installed.status).toBe(201);
    expect(await saveStepTableId(installed.body.workflowId)).toBe('invoices');
  });
});
