import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { keyValueOf, searchTextOf, type Cells } from '../rows/cells';
import { storedColumnsOf } from '../schemas';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

async function newTable(columns: unknown[], extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: `T ${Math.random()}`, columns, ...extra } });
  expect(response.status).toBe(201);
  return response.body.table as { id: string; slug: string; keyUnique: boolean };
}

/** Rows written straight into storage with their derived texts, independent of the rows routes. */
async function seedRows(tableId: string, rows: Cells[]) {
  const table = await db().dataTable.findUniqueOrThrow({ where: { id: tableId } });
  const columns = storedColumnsOf(table.columns);
  const start = Date.now();
  for (const [index, cells] of rows.entries()) {
    const keyValue = keyValueOf(columns, cells);
    await db().tableRow.create({
      data: {
        tableId,
        cells: cells as never,
        keyValue,
        uniqueKey: table.keyUnique ? keyValue : null,
        searchText: searchTextOf(columns, cells),
        // Distinct creation times keep the expected order unambiguous.
        createdAt: new Date(start + index),
      },
    });
  }
  await db().dataTable.update({ where: { id: tableId }, data: { rowCount: { increment: rows.length } } });
}

async function storedRows(tableId: string) {
  return db().tableRow.findMany({ where: { tableId }, orderBy: { createdAt: 'asc' } });
}

describe('POST /api/v1/tables/{id}/columns', () => {
  it('adds a column at the end or at a position, deriving a free key', async () => {
    const table = await newTable([{ label: 'Name' }, { label: 'Note' }]);
    const added = await call('POST', `/api/v1/tables/${table.id}/columns`, { cookie: admin.cookie, body: { column: { label: 'Name' } } });
    expect(added.status).toBe(201);
    expect(added.body.table.columns.map((c: { key: string }) => c.key)).toEqual(['name', 'note', 'name_2']);
    const first = await call('POST', `/api/v1/tables/${table.slug}/columns`, { cookie: admin.cookie, body: { column: { label: 'Id', type: 'number' }, position: 0 } });
    expect(first.body.table.columns.map((c: { key: string }) => c.key)).toEqual(['id', 'name', 'note', 'name_2']);
  });

  it('refuses an existing key (duplicate_column), a required column on a table with rows, and members', async () => {
    const table = await newTable([{ label: 'Name' }]);
    expect((await call('POST', `/api/v1/tables/${table.id}/columns`, { cookie: admin.cookie, body: { column: { key: 'name', label: 'Again' } } })).body.error.code).toBe(
      'tables.duplicate_column',
    );
    await seedRows(table.id, [{ name: 'a' }]);
    const required = await call('POST', `/api/v1/tables/${table.id}/columns`, { cookie: admin.cookie, body: { column: { label: 'Must', required: true } } });
    expect(required.status).toBe(409);
    expect(required.body.error.code).toBe('tables.cells_incompatible');
    expect((await call('POST', `/api/v1/tables/${table.id}/columns`, { cookie: member.cookie, body: { column: { label: 'X' } } })).body.error.code).toBe('auth.forbidden');
  });
});

describe('PATCH /api/v1/tables/{id}/columns/{key}', () => {
  it('converts existing cells when the type changes and every value fits', async () => {
    const table = await newTable([{ label: 'Amount' }]);
    await seedRows(table.id, [{ amount: '12' }, { amount: '3.5' }, {}]);
    const response = await call('PATCH', `/api/v1/tables/${table.id}/columns/amount`, { cookie: admin.cookie, body: { type: 'number' } });
    expect(response.status).toBe(200);
    expect(response.body.table.columns[0].type).toBe('number');
    expect((await storedRows(table.id)).map((row) => row.cells)).toEqual([{ amount: 12 }, { amount: 3.5 }, {}]);
  });

  it('refuses a type change naming the rows that do not fit, and changes nothing', async () => {
    const table = await newTable([{ label: 'Contact' }]);
    await seedRows(table.id, [{ contact: 'ada@example.com' }, { contact: 'not an email' }, { contact: 'bob@example.com' }]);
    const response = await call('PATCH', `/api/v1/tables/${table.id}/columns/contact`, { cookie: admin.cookie, body: { type: 'email' } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('tables.cells_incompatible');
    const [, bad] = await storedRows(table.id);
    expect(response.body.error.details).toEqual({ count: 1, rows: [{ id: bad.id, column: 'contact', value: 'not an email', reason: 'invalid_email' }] });
    const after = await call('GET', `/api/v1/tables/${table.id}`, { cookie: admin.cookie });
    expect(after.body.table.columns[0].type).toBe('text');
  });

  it('refuses making a column required while some rows are empty', async () => {
    const table = await newTable([{ label: 'City' }]);
    await seedRows(table.id, [{ city: 'Lyon' }, {}]);
    const response = await call('PATCH', `/api/v1/tables/${table.id}/columns/city`, { cookie: admin.cookie, body: { required: true } });
    expect(response.body.error).toMatchObject({ code: 'tables.cells_incompatible', details: { count: 1 } });
  });

  it('checks select values against new options', async () => {
    const table = await newTable([{ label: 'Status', type: 'select', options: ['open', 'closed'] }]);
    await seedRows(table.id, [{ status: 'open' }, { status: 'closed' }]);
    const narrowed = await call('PATCH', `/api/v1/tables/${table.id}/columns/status`, { cookie: admin.cookie, body: { options: ['open'] } });
    expect(narrowed.body.error).toMatchObject({ code: 'tables.cells_incompatible', details: { count: 1, rows: [{ value: 'closed', reason: 'not_an_option' }] } });
    const widened = await call('PATCH', `/api/v1/tables/${table.id}/columns/status`, { cookie: admin.cookie, body: { options: ['open', 'closed', 'won'] } });
    expect(widened.status).toBe(200);
  });

  it('moves the key to another column and recomputes keys; duplicates under keyUnique are refused', async () => {
    const table = await newTable([{ label: 'Code', isKey: true }, { label: 'Email', type: 'email' }]);
    await seedRows(table.id, [{ code: 'A', email: 'Same@x.io' }, { code: 'B', email: 'same@x.io' }]);
    const refused = await call('PATCH', `/api/v1/tables/${table.id}/columns/email`, { cookie: admin.cookie, body: { isKey: true } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('tables.duplicate_key');
    await call('PATCH', `/api/v1/tables/${table.id}`, { cookie: admin.cookie, body: { keyUnique: false } });
    const moved = await call('PATCH', `/api/v1/tables/${table.id}/columns/email`, { cookie: admin.cookie, body: { isKey: true } });
    expect(moved.status).toBe(200);
    expect(moved.body.table.columns.map((c: { isKey: boolean }) => c.isKey)).toEqual([false, true]);
    expect((await storedRows(table.id)).map((row) => [row.keyValue, row.uniqueKey])).toEqual([
      ['same@x.io', null],
      ['same@x.io', null],
    ]);
    const unique = await call('PATCH', `/api/v1/tables/${table.id}`, { cookie: admin.cookie, body: { keyUnique: true } });
    expect(unique.body.error.code).toBe('tables.duplicate_key');
  });

  it('answers 404 tables.column_not_found for an unknown column', async () => {
    const table = await newTable([{ label: 'A' }]);
    const response = await call('PATCH', `/api/v1/tables/${table.id}/columns/zzz`, { cookie: admin.cookie, body: { label: 'Z' } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('tables.column_not_found');
  });
});

describe('reorder and remove', () => {
  it('reorders when every key is listed once, 400 otherwise', async () => {
    const table = await newTable([{ label: 'A' }, { label: 'B' }, { label: 'C' }]);
    const ok = await call('POST', `/api/v1/tables/${table.id}/columns/reorder`, { cookie: admin.cookie, body: { keys: ['c', 'a', 'b'] } });
    expect(ok.body.table.columns.map((c: { key: string }) => c.key)).toEqual(['c', 'a', 'b']);
    expect((await call('POST', `/api/v1/tables/${table.id}/columns/reorder`, { cookie: admin.cookie, body: { keys: ['a', 'b'] } })).status).toBe(400);
  });

  it('removes a column and its cells from every row, and the search text follows', async () => {
    const table = await newTable([{ label: 'Name' }, { label: 'Secret word' }]);
    await seedRows(table.id, [{ name: 'Ada', secret_word: 'swordfish' }]);
    const response = await call('DELETE', `/api/v1/tables/${table.id}/columns/secret_word`, { cookie: admin.cookie });
    expect(response.body.table.columns.map((c: { key: string }) => c.key)).toEqual(['name']);
    const [row] = await storedRows(table.id);
    expect(row.cells).toEqual({ name: 'Ada' });
    expect(row.searchText).toBe('Ada');
    expect(await db().auditEntry.count({ where: { action: 'table.column_removed', targetId: table.id } })).toBe(1);
  });
});
