/** Row writes and single-row reads over the REST surface: POST/GET/PATCH/DELETE rows, upsert, batch. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../../core/config';
import { db } from '../../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

afterEach(() => {
  delete process.env.TABLES_MAX_ROWS;
  resetConfigForTests();
});

interface TestTable {
  id: string;
  slug: string;
}

async function newTable(extra: Record<string, unknown> = {}): Promise<TestTable> {
  const response = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: {
      name: `Customers ${Math.random()}`,
      columns: [
        { label: 'Email', type: 'email', isKey: true },
        { label: 'Name', required: true },
        { label: 'Score', type: 'number' },
        { label: 'Active', type: 'boolean' },
        { label: 'Plan', type: 'select', options: ['free', 'pro'] },
        { label: 'Joined', type: 'date' },
      ],
      ...extra,
    },
  });
  expect(response.status).toBe(201);
  return response.body.table;
}

const rowsPath = (table: TestTable) => `/api/v1/tables/${table.id}/rows`;
const insert = (table: TestTable, cells: Record<string, unknown>, who: TestMember = member) => call('POST', rowsPath(table), { cookie: who.cookie, body: { cells } });
const upsert = (table: TestTable, cells: Record<string, unknown>) => call('POST', `${rowsPath(table)}/upsert`, { cookie: member.cookie, body: { cells } });
const batch = (table: TestTable, operations: unknown[]) => call('POST', `${rowsPath(table)}/batch`, { cookie: member.cookie, body: { operations } });

async function counts(table: TestTable) {
  const stored = await db().dataTable.findUniqueOrThrow({ where: { id: table.id } });
  const actual = await db().tableRow.count({ where: { tableId: table.id } });
  return { rowCount: stored.rowCount, actual };
}

describe('POST /api/v1/tables/{id}/rows', () => {
  it('answers 201 {row} with the stored cells, timestamps and the member as writer, and counts the row', async () => {
    const table = await newTable();
    const ok = await insert(table, { email: ' Ada@Example.com ', name: 'Ada', score: 36, active: true, plan: 'pro', joined: '2024-02-29' });
    expect(ok.status).toBe(201);
    expect(ok.body.row).toEqual({
      id: expect.any(String),
      cells: { email: 'Ada@Example.com', name: 'Ada', score: 36, active: true, plan: 'pro', joined: '2024-02-29' },
      createdAt: expect.any(String),
      updatedAt: ok.body.row.createdAt,
      createdBy: { kind: 'member', id: member.id },
      updatedBy: { kind: 'member', id: member.id },
    });
    expect(await counts(table)).toEqual({ rowCount: 1, actual: 1 });
    expect((await call('GET', `/api/v1/tables/${table.id}`, { cookie: member.cookie })).body.table.rowCount).toBe(1);
  });

  it('drops empty cells (null or "") instead of storing them', async () => {
    const table = await newTable();
    const response = await insert(table, { name: 'Bo', score: null, plan: '' });
    expect(response.body.row.cells).toEqual({ name: 'Bo' });
  });

  it('refuses cells that do not fit their columns: 400 tables.invalid_cells with every problem', async () => {
    const table = await newTable();
    const response = await insert(table, { email: 'not-an-email', score: 'twelve', plan: 'gold', joined: '2023-02-30', nope: 1 });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('tables.invalid_cells');
    const reasons = Object.fromEntries(response.body.error.details.problems.map((p: { column: string; reason: string }) => [p.column, p.reason]));
    expect(reasons).toEqual({ email: 'invalid_email', score: 'wrong_type', plan: 'not_an_option', joined: 'invalid_date', nope: 'unknown_column', name: 'required' });
    expect(await counts(table)).toEqual({ rowCount: 0, actual: 0 });
  });

  it('numbers as people write them: a number column takes "87,40 €" and "1.234,56", and a refusal names the column, value and why', async () => {
    const table = await newTable();
    const written = await insert(table, { email: 'eu@example.com', name: 'Eu', score: '87,40 €' });
    expect(written.status).toBe(201);
    expect(written.body.row.cells.score).toBe(87.4);
    expect((await insert(table, { email: 'de@example.com', name: 'De', score: '1.234,56' })).body.row.cells.score).toBe(1234.56);

    const ambiguous = await insert(table, { email: 'x@example.com', name: 'X', score: '1,234' });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error).toMatchObject({ code: 'tables.invalid_cells', details: { problems: [{ column: 'score', reason: 'ambiguous_number', value: '1,234' }] } });
    expect(ambiguous.body.error.message).toContain('Column “Score” (score, number): “1,234” is ambiguous (1234 or 1.234)');
    const two = await insert(table, { email: 'y@example.com', name: 'Y', score: 'lots', plan: 'gold' });
    expect(two.body.error.message).toBe('Column “Score” (score, number): “lots” is not a number. One other cell does not fit either.');
  });

  it('answers 400 request.bad_request when cells is not an object of scalars', async () => {
    const table = await newTable();
    for (const body of [{}, { cells: [] }, { cells: { name: { nested: true } } }]) {
      const response = await call('POST', rowsPath(table), { cookie: member.cookie, body });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it('refuses a second row with the same key while keyUnique: 409 tables.duplicate_key (emails case-insensitively)', async () => {
    const table = await newTable();
    expect((await insert(table, { email: 'ada@example.com', name: 'Ada' })).status).toBe(201);
    const response = await insert(table, { email: 'ADA@example.com', name: 'Other Ada' });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'tables.duplicate_key', details: { column: 'email', key: 'ada@example.com' } });
    expect(await counts(table)).toEqual({ rowCount: 1, actual: 1 });
  });

  it('accepts duplicate keys when keyUnique is off', async () => {
    const table = await newTable({ keyUnique: false });
    expect((await insert(table, { email: 'ada@example.com', name: 'Ada' })).status).toBe(201);
    expect((await insert(table, { email: 'ada@example.com', name: 'Ada again' })).status).toBe(201);
    expect(await counts(table)).toEqual({ rowCount: 2, actual: 2 });
  });

  it('answers 409 tables.limit_reached (details.limit maxRows) when the table holds TABLES_MAX_ROWS rows', async () => {
    process.env.TABLES_MAX_ROWS = '2';
    resetConfigForTests();
    const table = await newTable();
    expect((await insert(table, { name: 'one' })).status).toBe(201);
    expect((await insert(table, { name: 'two' })).status).toBe(201);
    const response = await insert(table, { name: 'three' });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'tables.limit_reached', details: { limit: 'maxRows', value: 2 } });
    expect(await counts(table)).toEqual({ rowCount: 2, actual: 2 });
  });

  it('keeps maxRows under concurrent inserts', async () => {
    process.env.TABLES_MAX_ROWS = '5';
    resetConfigForTests();
    const table = await newTable();
    const responses = await Promise.all(Array.from({ length: 9 }, (_, index) => insert(table, { name: `n${index}` })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(5);
    expect(responses.filter((response) => response.status === 409).every((response) => response.body.error.code === 'tables.limit_reached')).toBe(true);
    expect(await counts(table)).toEqual({ rowCount: 5, actual: 5 });
  });

  it('records table.row_created in the audit log with tableId and rowId', async () => {
    const table = await newTable();
    const { row } = (await insert(table, { name: 'Audited' })).body;
    const entries = await db().auditEntry.findMany({ where: { action: 'table.row_created', targetId: table.id } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorMemberId: member.id, targetKind: 'table', details: { tableId: table.id, rowId: row.id } });
  });

  it('lets any member write through tables:write, reaches the table by slug, and refuses a tables:read key', async () => {
    const table = await newTable();
    const writer = await createApiKeyFor(member, ['tables:write']);
    const bySlug = await call('POST', `/api/v1/tables/${table.slug}/rows`, { key: writer.secret, body: { cells: { name: 'By key' } } });
    expect(bySlug.status).toBe(201);
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'table.row_created', targetId: table.id } });
    expect(entry.details).toMatchObject({ apiKeyId: writer.key.id });
    const reader = await createApiKeyFor(member, ['tables:read']);
    const refused = await call('POST', rowsPath(table), { key: reader.secret, body: { cells: { name: 'No' } } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'tables:write' } });
    expect((await call('POST', rowsPath(table), { body: { cells: { name: 'x' } } })).status).toBe(401);
  });

  it('answers 404 tables.not_found for an unknown table', async () => {
    const response = await call('POST', '/api/v1/tables/no-such-table/rows', { cookie: member.cookie, body: { cells: {} } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('tables.not_found');
  });
});

describe('GET /api/v1/tables/{id}/rows/{rowId}', () => {
  it('answers {row}; 404 tables.row_not_found for an unknown id, a malformed id or a row of another table', async () => {
    const table = await newTable();
    const other = await newTable();
    const { row } = (await insert(table, { name: 'Read me' })).body;
    const reader = await createApiKeyFor(member, ['tables:read']);
    const response = await call('GET', `${rowsPath(table)}/${row.id}`, { key: reader.secret });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ row });
    for (const path of [`${rowsPath(table)}/00000000-0000-4000-8000-000000000000`, `${rowsPath(table)}/not-a-uuid`, `${rowsPath(other)}/${row.id}`]) {
      const missing = await call('GET', path, { cookie: member.cookie });
      expect(missing.status, path).toBe(404);
      expect(missing.body.error.code).toBe('tables.row_not_found');
    }
  });
});

describe('PATCH /api/v1/tables/{id}/rows/{rowId}', () => {
  it('changes only the given cells, clears with null, and moves updatedAt/updatedBy', async () => {
    const table = await newTable();
    const { row } = (await insert(table, { email: 'ada@example.com', name: 'Ada', score: 1, plan: 'free' }, admin)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await call('PATCH', `${rowsPath(table)}/${row.id}`, { cookie: member.cookie, body: { cells: { score: 2, plan: null } } });
    expect(response.status).toBe(200);
    expect(response.body.row).toMatchObject({
      id: row.id,
      cells: { email: 'ada@example.com', name: 'Ada', score: 2 },
      createdAt: row.createdAt,
      createdBy: { kind: 'member', id: admin.id },
      updatedBy: { kind: 'member', id: member.id },
    });
    expect(response.body.row.updatedAt > row.updatedAt).toBe(true);
    expect(await db().auditEntry.count({ where: { action: 'table.row_updated', targetId: table.id } })).toBe(1);
  });

  it('refuses clearing a required cell or a bad value (400 tables.invalid_cells) and a key taken by another row (409)', async () => {
    const table = await newTable();
    const { row } = (await insert(table, { email: 'a@example.com', name: 'A' })).body;
    await insert(table, { email: 'b@example.com', name: 'B' });
    const required = await call('PATCH', `${rowsPath(table)}/${row.id}`, { cookie: member.cookie, body: { cells: { name: null } } });
    expect(required.body.error).toMatchObject({ code: 'tables.invalid_cells', details: { problems: [{ column: 'name', reason: 'required' }] } });
    const badType = await call('PATCH', `${rowsPath(table)}/${row.id}`, { cookie: member.cookie, body: { cells: { active: 'yes' } } });
    expect(badType.body.error.code).toBe('tables.invalid_cells');
    const duplicate = await call('PATCH', `${rowsPath(table)}/${row.id}`, { cookie: member.cookie, body: { cells: { email: 'B@example.com' } } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('tables.duplicate_key');
    expect((await call('GET', `${rowsPath(table)}/${row.id}`, { cookie: member.cookie })).body.row.cells).toEqual({ email: 'a@example.com', name: 'A' });
  });

  it('answers 404 tables.row_not_found for a row that does not exist', async () => {
    const table = await newTable();
    const response = await call('PATCH', `${rowsPath(table)}/00000000-0000-4000-8000-000000000000`, { cookie: member.cookie, body: { cells: { name: 'x' } } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('tables.row_not_found');
  });
});

describe('DELETE /api/v1/tables/{id}/rows/{rowId}', () => {
  it('answers the row as it was, removes it, keeps row_count exact and audits table.row_deleted', async () => {
    const table = await newTable();
    const { row } = (await insert(table, { name: 'Gone soon' })).body;
    await insert(table, { name: 'Stays' });
    const response = await call('DELETE', `${rowsPath(table)}/${row.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.row).toEqual(row);
    expect(await counts(table)).toEqual({ rowCount: 1, actual: 1 });
    const again = await call('DELETE', `${rowsPath(table)}/${row.id}`, { cookie: member.cookie });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('tables.row_not_found');
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'table.row_deleted', targetId: table.id } });
    expect(entry.details).toMatchObject({ tableId: table.id, rowId: row.id });
  });
});

describe('POST /api/v1/tables/{id}/rows/upsert', () => {
  it('inserts when no row has the key (created: true), then updates that row with the given cells (created: false)', async () => {
    const table = await newTable();
    const first = await upsert(table, { email: 'ada@example.com', name: 'Ada', score: 1, plan: 'free' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: true, row: { cells: { email: 'ada@example.com', name: 'Ada', score: 1, plan: 'free' } } });
    const second = await upsert(table, { email: 'ADA@example.com', score: 2, plan: null });
    expect(second.body).toMatchObject({ created: false, row: { id: first.body.row.id, cells: { email: 'ADA@example.com', name: 'Ada', score: 2 } } });
    expect(await counts(table)).toEqual({ rowCount: 1, actual: 1 });
    expect(await db().auditEntry.count({ where: { action: 'table.row_created', targetId: table.id } })).toBe(1);
    expect(await db().auditEntry.count({ where: { action: 'table.row_updated', targetId: table.id } })).toBe(1);
  });

  it('answers 409 tables.key_column_missing for a table without key column', async () => {
    const table = await newTable({ columns: [{ label: 'Name' }] });
    const response = await upsert(table, { name: 'x' });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('tables.key_column_missing');
  });

  it('answers 400 tables.invalid_cells when the key cell is empty, or when a new row lacks a required cell', async () => {
    const table = await newTable();
    const empty = await upsert(table, { name: 'No key' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'tables.invalid_cells', details: { problems: [{ column: 'email', reason: 'required' }] } });
    const missing = await upsert(table, { email: 'new@example.com' });
    expect(missing.body.error).toMatchObject({ code: 'tables.invalid_cells', details: { problems: [{ column: 'name', reason: 'required' }] } });
  });

  it('updates the oldest row with the key when keyUnique is off', async () => {
    const table = await newTable({ keyUnique: false });
    const oldest = (await insert(table, { email: 'dup@example.com', name: 'first' })).body.row;
    const newer = (await insert(table, { email: 'dup@example.com', name: 'second' })).body.row;
    const response = await upsert(table, { email: 'dup@example.com', score: 7 });
    expect(response.body).toMatchObject({ created: false, row: { id: oldest.id, cells: { name: 'first', score: 7 } } });
    expect((await call('GET', `${rowsPath(table)}/${newer.id}`, { cookie: member.cookie })).body.row.cells.score).toBeUndefined();
  });

  it.each([
    ['with keyUnique (INSERT … ON CONFLICT)', true],
    ['without keyUnique (advisory lock on the key)', false],
  ])('makes exactly one row out of 10 concurrent upserts of one key, %s', async (_name, keyUnique) => {
    const table = await newTable({ keyUnique });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => upsert(table, { email: 'race@example.com', name: `writer ${index}`, score: index })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(responses.filter((response) => response.body.created)).toHaveLength(1);
    expect(new Set(responses.map((response) => response.body.row.id)).size).toBe(1);
    expect(await counts(table)).toEqual({ rowCount: 1, actual: 1 });
  });
});

describe('POST /api/v1/tables/{id}/rows/batch', () => {
  it('applies insert, update, upsert and delete in order and answers one result per operation', async () => {
    const table = await newTable();
    const existing = (await insert(table, { email: 'old@example.com', name: 'Old' })).body.row;
    const doomed = (await insert(table, { name: 'Doomed' })).body.row;
    const response = await batch(table, [
      { op: 'insert', cells: { email: 'new@example.com', name: 'New' } },
      { op: 'update', id: existing.id, cells: { score: 5 } },
      { op: 'upsert', cells: { email: 'new@example.com', plan: 'pro' } },
      { op: 'upsert', cells: { email: 'third@example.com', name: 'Third' } },
      { op: 'delete', id: doomed.id },
    ]);
    expect(response.status).toBe(200);
    const { results } = response.body;
    expect(results.map((result: { op: string }) => result.op)).toEqual(['insert', 'update', 'upsert', 'upsert', 'delete']);
    expect(results[0].row.cells).toEqual({ email: 'new@example.com', name: 'New' });
    expect(results[1].row.cells).toEqual({ email: 'old@example.com', name: 'Old', score: 5 });
    expect(results[2]).toMatchObject({ id: results[0].id, created: false, row: { cells: { email: 'new@example.com', name: 'New', plan: 'pro' } } });
    expect(results[3]).toMatchObject({ created: true });
    expect(results[4]).toEqual({ op: 'delete', id: doomed.id });
    expect(await counts(table)).toEqual({ rowCount: 3, actual: 3 });
    const entries = await db().auditEntry.findMany({ where: { targetId: table.id, action: { startsWith: 'table.row' } } });
    const batchEntries = entries.filter((entry) => entry.action === 'table.rows_batch');
    expect(batchEntries).toHaveLength(1);
    expect(batchEntries[0].details).toMatchObject({ tableId: table.id, operations: 5, inserted: 2, updated: 2, deleted: 1 });
  });

  it('is all or nothing: the first failing operation aborts the batch with its own code and details.index', async () => {
    const table = await newTable();
    const before = await counts(table);
    const cases: [unknown[], string, number][] = [
      [[{ op: 'insert', cells: { name: 'ok' } }, { op: 'insert', cells: { name: 'ok too' } }, { op: 'insert', cells: { score: 'bad' } }], 'tables.invalid_cells', 2],
      [[{ op: 'insert', cells: { name: 'ok' } }, { op: 'delete', id: '00000000-0000-4000-8000-000000000000' }], 'tables.row_not_found', 1],
      [[{ op: 'insert', cells: { email: 'x@example.com', name: 'a' } }, { op: 'insert', cells: { email: 'X@example.com', name: 'b' } }], 'tables.duplicate_key', 1],
      [[{ op: 'update', id: 'nope', cells: {} }], 'tables.row_not_found', 0],
    ];
    for (const [operations, code, index] of cases) {
      const response = await batch(table, operations);
      expect(response.body.error, code).toMatchObject({ code, details: { index } });
    }
    expect(await counts(table)).toEqual(before);
    expect(await db().auditEntry.count({ where: { targetId: table.id, action: { in: ['table.rows_batch', 'table.row_created'] } } })).toBe(0);
  });

  it('answers 409 tables.limit_reached with the index of the first insert past maxRows', async () => {
    process.env.TABLES_MAX_ROWS = '3';
    resetConfigForTests();
    const table = await newTable();
    await insert(table, { name: 'one' });
    const response = await batch(table, [
      { op: 'insert', cells: { name: 'two' } },
      { op: 'insert', cells: { name: 'three' } },
      { op: 'insert', cells: { name: 'four' } },
    ]);
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'tables.limit_reached', details: { limit: 'maxRows', index: 2 } });
    expect(await counts(table)).toEqual({ rowCount: 1, actual: 1 });
    // A delete earlier in the batch makes room.
    const first = await db().tableRow.findFirstOrThrow({ where: { tableId: table.id } });
    const roomy = await batch(table, [{ op: 'delete', id: first.id }, ...Array.from({ length: 3 }, (_, i) => ({ op: 'insert', cells: { name: `n${i}` } }))]);
    expect(roomy.status).toBe(200);
    expect(await counts(table)).toEqual({ rowCount: 3, actual: 3 });
  });

  it('takes 1 to 500 operations: 0 and 501 are 400 request.bad_request', async () => {
    const table = await newTable();
    expect((await batch(table, [])).body.error.code).toBe('request.bad_request');
    const tooMany = await batch(table, Array.from({ length: 501 }, (_, i) => ({ op: 'insert', cells: { name: `r${i}` } })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('request.bad_request');
    const full = await batch(table, Array.from({ length: 500 }, (_, i) => ({ op: 'insert', cells: { name: `r${i}` } })));
    expect(full.status).toBe(200);
    expect(full.body.results).toHaveLength(500);
    expect(await counts(table)).toEqual({ rowCount: 500, actual: 500 });
  });

  it('answers 400 for an unknown operation', async () => {
    const table = await newTable();
    const response = await batch(table, [{ op: 'truncate' }]);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});

describe('row writes and structure changes', () => {
  it('keeps row_count exact through a mix of concurrent inserts, upserts, deletes and batches', async () => {
    const table = await newTable();
    const seeded = await batch(table, Array.from({ length: 20 }, (_, i) => ({ op: 'insert', cells: { name: `s${i}` } })));
    const ids: string[] = seeded.body.results.map((result: { id: string }) => result.id);
    await Promise.all([
      ...ids.slice(0, 8).map((id) => call('DELETE', `${rowsPath(table)}/${id}`, { cookie: member.cookie })),
      ...Array.from({ length: 8 }, (_, i) => insert(table, { name: `i${i}` })),
      ...Array.from({ length: 4 }, (_, i) => upsert(table, { email: `u${i % 2}@example.com`, name: 'u' })),
      batch(table, [{ op: 'delete', id: ids[10] }, { op: 'insert', cells: { name: 'b' } }]),
    ]);
    const { rowCount, actual } = await counts(table);
    expect(rowCount).toBe(actual);
    expect(actual).toBe(20 - 8 + 8 + 2);
  });

  it('makes row writes wait for a structure change holding the table (FOR UPDATE), then validates against the new structure', async () => {
    const table = await newTable();
    // What columns/service.ts does: lock the table row FOR UPDATE and save new columns (score becomes text).
    let locked!: () => void;
    let finish!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const change = db().$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM data_tables WHERE id = ${table.id}::uuid FOR UPDATE`;
        const stored = await tx.dataTable.findUniqueOrThrow({ where: { id: table.id } });
        const columns = (stored.columns as { key: string; type: string }[]).map((column) => (column.key === 'score' ? { ...column, type: 'text' } : column));
        await tx.dataTable.update({ where: { id: table.id }, data: { columns: columns as never } });
        locked();
        await finished;
      },
      { timeout: 20_000 },
    );
    await isLocked;
    const write = insert(table, { name: 'during', score: 2 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    finish();
    await change;
    const response = await write;
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'tables.invalid_cells', details: { problems: [{ column: 'score', reason: 'wrong_type' }] } });
  });
});
