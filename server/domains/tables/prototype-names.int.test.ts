/**
 * Column keys and labels named after members of Object.prototype (and `prototype`): a column is
 * data, so such a name must behave exactly like any other through every route of the domain.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { requestTableExport } from '../../testing/table-export';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

const columnKeyShape = /^[a-z][a-z0-9_]*$/;

interface TableAnswer {
  id: string;
  slug: string;
  columns: { key: string; label: string; type: string; isKey: boolean }[];
}

async function createTable(columns: unknown[], extra: Record<string, unknown> = {}) {
  return call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: `Proto ${Math.random()}`, columns, ...extra } });
}

async function tableWithLabel(name: string, type = 'text', extra: Record<string, unknown> = {}): Promise<{ table: TableAnswer; key: string }> {
  const created = await createTable([{ label: 'Code', isKey: true }, { label: name, type }], extra);
  expect(created.status).toBe(201);
  const table = created.body.table as TableAnswer;
  return { table, key: table.columns[1].key };
}

async function insert(tableId: string, cells: Record<string, unknown>) {
  const response = await call('POST', `/api/v1/tables/${tableId}/rows`, { cookie: member.cookie, body: { cells } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.row as { id: string; cells: Record<string, unknown> };
}

async function codes(tableId: string, query: Record<string, string>): Promise<string[]> {
  const response = await call('GET', `/api/v1/tables/${tableId}/rows?${new URLSearchParams(query)}`, { cookie: member.cookie });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.rows.map((row: { cells: { code: string } }) => row.cells.code);
}

describe('hardening 3: a column named after an Object.prototype member behaves like any other column', () => {
  it.each(prototypeNames)('as an explicit key, %s is a column key or a 400, never a 500', async (name) => {
    const response = await createTable([{ key: name, label: name }]);
    if (columnKeyShape.test(name)) {
      expect(response.status).toBe(201);
      expect(response.body.table.columns[0].key).toBe(name);
    } else {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it.each(prototypeNames)('labelled %s: write, sort, filter, search, export, import and column changes answer as for any label', async (name) => {
    const { table, key } = await tableWithLabel(name);
    expect(key).toMatch(columnKeyShape);

    // Write: a row with a value, one without, one more with.
    await insert(table.id, { code: 'a', [key]: 'hello' });
    const empty = await insert(table.id, { code: 'b' });
    expect(Object.keys(empty.cells)).toEqual(['code']);
    await insert(table.id, { code: 'c', [key]: 'world' });

    // Sort (empty cells last), filter, search.
    expect(await codes(table.id, { sort: key, dir: 'asc' })).toEqual(['a', 'c', 'b']);
    expect(await codes(table.id, { sort: key, dir: 'desc' })).toEqual(['c', 'a', 'b']);
    expect(await codes(table.id, { filter: JSON.stringify([{ column: key, op: 'empty' }]) })).toEqual(['b']);
    expect(await codes(table.id, { filter: JSON.stringify([{ column: key, op: 'not_empty' }]) })).toEqual(['a', 'c']);
    expect(await codes(table.id, { filter: JSON.stringify([{ column: key, op: 'eq', value: 'HELLO' }]) })).toEqual(['a']);
    expect(await codes(table.id, { q: 'hello' })).toEqual(['a']);
    expect(await codes(table.id, { q: 'function' })).toEqual([]);
    expect(await codes(table.id, { q: 'native' })).toEqual([]);

    // Export: the empty cell is empty.
    const exported = await requestTableExport(table.id, { cookie: member.cookie, query: { sort: key } });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toBe(`Code,${name}\na,hello\nc,world\nb,\n`);

    // Import: the header named like the label maps to the column; an empty field stays empty.
    const csv = `Code,${name}\nd,imported\ne,\n`;
    const preview = await call('POST', `/api/v1/tables/${table.id}/import/preview`, { cookie: member.cookie, body: { csv } });
    if (name === '__proto__') {
      // A header no JSON object can carry as a mapping key: refused, so it is never silently dropped.
      expect(preview.status).toBe(400);
      expect(preview.body.error.details.reason).toBe('csv_reserved_header');
    } else {
      expect(preview.status).toBe(200);
      expect(preview.body.mapping).toEqual({ Code: 'code', [name]: key });
      const imported = await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv, mapping: preview.body.mapping } });
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body).toMatchObject({ inserted: 2, rejectedCount: 0 });
      expect(await codes(table.id, { filter: JSON.stringify([{ column: key, op: 'empty' }]) })).toEqual(['b', 'e']);
    }

    // Column changes: making it required lists exactly the rows without a value.
    const required = await call('PATCH', `/api/v1/tables/${table.id}/columns/${key}`, { cookie: admin.cookie, body: { required: true } });
    expect(required.status).toBe(409);
    expect(required.body.error).toMatchObject({ code: 'tables.cells_incompatible', details: { count: name === '__proto__' ? 1 : 2 } });
    // Making it the (unique) key: rows without a value have no key, so they do not collide.
    const keyed = await call('PATCH', `/api/v1/tables/${table.id}/columns/${key}`, { cookie: admin.cookie, body: { isKey: true } });
    expect(keyed.status, JSON.stringify(keyed.body)).toBe(200);
    const retyped = await call('PATCH', `/api/v1/tables/${table.id}/columns/${key}`, { cookie: admin.cookie, body: { type: 'email' } });
    expect(retyped.status).toBe(409);
    expect(retyped.body.error.code).toBe('tables.cells_incompatible');
    const reordered = await call('POST', `/api/v1/tables/${table.id}/columns/reorder`, { cookie: admin.cookie, body: { keys: [key, 'code'] } });
    expect(reordered.status).toBe(200);
    const removed = await call('DELETE', `/api/v1/tables/${table.id}/columns/${key}`, { cookie: admin.cookie });
    expect(removed.status).toBe(200);
    expect(await codes(table.id, { sort: 'code' })).toEqual(name === '__proto__' ? ['a', 'b', 'c'] : ['a', 'b', 'c', 'd', 'e']);
  });

  it.each(prototypeNames)('a number column labelled %s sorts numerically and filters (typed slot or not)', async (name) => {
    const { table, key } = await tableWithLabel(name, 'number');
    await insert(table.id, { code: 'five', [key]: 5 });
    await insert(table.id, { code: 'none' });
    await insert(table.id, { code: 'minus', [key]: -3 });
    const expectNumericView = async () => {
      expect(await codes(table.id, { sort: key })).toEqual(['minus', 'five', 'none']);
      expect(await codes(table.id, { filter: JSON.stringify([{ column: key, op: 'gt', value: 0 }]) })).toEqual(['five']);
      expect(await codes(table.id, { filter: JSON.stringify([{ column: key, op: 'empty' }]) })).toEqual(['none']);
    };
    await expectNumericView();
    // The same through JSONB, as for a table written before typed slots existed.
    await db().$executeRaw`UPDATE data_tables SET typed_slots = NULL WHERE id = ${table.id}::uuid`;
    await expectNumericView();
  });

  it.each(prototypeNames)('a column labelled %s added to a table with rows gets its own slot and empty cells', async (name) => {
    const created = await createTable([{ label: 'Code' }]);
    const tableId = created.body.table.id;
    await insert(tableId, { code: 'old' });
    const added = await call('POST', `/api/v1/tables/${tableId}/columns`, { cookie: admin.cookie, body: { column: { label: name, type: 'number' } } });
    expect(added.status).toBe(201);
    const key = added.body.table.columns[1].key as string;
    await insert(tableId, { code: 'new', [key]: 1 });
    expect(await codes(tableId, { sort: key })).toEqual(['new', 'old']);
    expect(await codes(tableId, { filter: JSON.stringify([{ column: key, op: 'empty' }]) })).toEqual(['old']);
  });

  it.each(['constructor', 'prototype'])('a unique key column keyed %s: rows without a key value do not collide', async (name) => {
    const created = await createTable([{ key: name, label: 'Ref', isKey: true }, { label: 'Code' }], { keyUnique: true });
    expect(created.status).toBe(201);
    const tableId = created.body.table.id;
    await insert(tableId, { code: 'x' });
    await insert(tableId, { code: 'y' });
    const upserted = await call('POST', `/api/v1/tables/${tableId}/rows/upsert`, { cookie: member.cookie, body: { cells: { [name]: 'r1', code: 'z' } } });
    expect(upserted.status).toBe(200);
    expect(upserted.body.created).toBe(true);
  });

  it('refuses a cell or a mapping keyed __proto__ with a 400 rather than dropping it', async () => {
    const { table } = await tableWithLabel('Note');
    const cells = await call('POST', `/api/v1/tables/${table.id}/rows`, { cookie: member.cookie, rawBody: '{"cells":{"code":"a","__proto__":"x"}}', headers: { 'content-type': 'application/json' } });
    expect(cells.status).toBe(400);
    const mapping = await call('POST', `/api/v1/tables/${table.id}/import`, {
      cookie: member.cookie,
      rawBody: '{"csv":"Code\\nq","mapping":{"Code":"code","__proto__":"note"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(mapping.status).toBe(400);
    expect(mapping.body.error.code).toBe('request.bad_request');
  });

  it.each(prototypeNames)('a cell, filter or sort naming %s where no such column exists is a 400', async (name) => {
    const { table } = await tableWithLabel('Note');
    if (name !== '__proto__') {
      const cells = await call('POST', `/api/v1/tables/${table.id}/rows`, { cookie: member.cookie, body: { cells: { code: 'a', [name]: 'x' } } });
      expect(cells.status).toBe(400);
      expect(cells.body.error).toMatchObject({ code: 'tables.invalid_cells', details: { problems: [{ column: name, reason: 'unknown_column' }] } });
    }
    const filter = await call('GET', `/api/v1/tables/${table.id}/rows?${new URLSearchParams({ filter: JSON.stringify([{ column: name, op: 'empty' }]) })}`, { cookie: member.cookie });
    expect(filter.status).toBe(400);
    const sort = await call('GET', `/api/v1/tables/${table.id}/rows?${new URLSearchParams({ sort: name })}`, { cookie: member.cookie });
    expect(sort.status).toBe(400);
  });
});
