import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { requestTableExport } from '../../../testing/table-export';
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

async function newTable(extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: {
      name: `Contacts ${Math.random()}`,
      columns: [
        { label: 'Email', type: 'email', isKey: true, required: true },
        { label: 'Name' },
        { label: 'Age', type: 'number' },
        { label: 'Active', type: 'boolean' },
      ],
      ...extra,
    },
  });
  return response.body.table as { id: string; slug: string };
}

const csv = ['Email,Full name,Age,Active', 'ada@example.com,Ada,36,yes', 'not-an-email,Bob,40,no', 'cy@example.com,Cy,abc,true', '"dee@example.com","Dee, Jr.",,'].join('\n');
const mapping = { Email: 'email', 'Full name': 'name', Age: 'age', Active: 'active' };

const rowsOf = (tableId: string) => db().tableRow.findMany({ where: { tableId }, orderBy: { seq: 'asc' } });

describe('POST /api/v1/tables/{id}/import/preview', () => {
  it('shows headers, the first lines, the count and a suggested mapping by key or label', async () => {
    const table = await newTable();
    const response = await call('POST', `/api/v1/tables/${table.id}/import/preview`, { cookie: member.cookie, body: { csv } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      headers: ['Email', 'Full name', 'Age', 'Active'],
      sample: [
        ['ada@example.com', 'Ada', '36', 'yes'],
        ['not-an-email', 'Bob', '40', 'no'],
        ['cy@example.com', 'Cy', 'abc', 'true'],
        ['dee@example.com', 'Dee, Jr.', '', ''],
      ],
      lineCount: 4,
      mapping: { Email: 'email', 'Full name': null, Age: 'age', Active: 'active' },
    });
  });

  it('answers 400 for a file that is not CSV', async () => {
    const table = await newTable();
    const response = await call('POST', `/api/v1/tables/${table.id}/import/preview`, { cookie: member.cookie, body: { csv: 'a,b\n"unclosed,1' } });
    expect(response.status).toBe(400);
    expect(response.body.error.details.reason).toBe('csv_unreadable');
  });
});

describe('POST /api/v1/tables/{id}/import', () => {
  it('reports every bad line with its number and reasons and writes nothing', async () => {
    const table = await newTable();
    const response = await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv, mapping } });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('tables.import_rejected');
    expect(response.body.error.details).toEqual({
      count: 2,
      rejected: [
        { line: 3, problems: [{ column: 'email', reason: 'invalid_email', value: 'not-an-email', message: expect.stringContaining('“not-an-email” is not an email address') }] },
        { line: 4, problems: [{ column: 'age', reason: 'wrong_type', value: 'abc', message: expect.stringContaining('“abc” is not a number') }] },
      ],
    });
    expect(await rowsOf(table.id)).toEqual([]);
  });

  it('imports only the valid lines with skipInvalid, in one go, and audits it', async () => {
    const table = await newTable();
    const response = await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv, mapping, skipInvalid: true } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ inserted: 2, updated: 0, rejectedCount: 2 });
    expect((await rowsOf(table.id)).map((row) => row.cells)).toEqual([
      { email: 'ada@example.com', name: 'Ada', age: 36, active: true },
      { email: 'dee@example.com', name: 'Dee, Jr.' },
    ]);
    const stored = await db().dataTable.findUniqueOrThrow({ where: { id: table.id } });
    expect(stored.rowCount).toBe(2);
    const [row] = await rowsOf(table.id);
    expect(row.createdByMemberId).toBe(member.id);
    expect(await db().auditEntry.count({ where: { action: 'table.rows_imported', targetId: table.id } })).toBe(1);
  });

  it('refuses keys that already exist or repeat in the file when inserting', async () => {
    const table = await newTable();
    await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv: 'Email\nada@example.com', mapping: { Email: 'email' } } });
    const again = await call('POST', `/api/v1/tables/${table.id}/import`, {
      cookie: member.cookie,
      body: { csv: 'Email\nADA@example.com\nnew@example.com\nnew@example.com', mapping: { Email: 'email' } },
    });
    expect(again.status).toBe(422);
    expect(again.body.error.details.rejected.map((r: { line: number; problems: { reason: string }[] }) => [r.line, r.problems[0].reason])).toEqual([
      [2, 'duplicate_key'],
      [4, 'duplicate_key'],
    ]);
  });

  it('upserts by the key column: updates what exists, adds the rest, keeps unmapped cells', async () => {
    const table = await newTable();
    await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv: 'Email,Name,Age\nada@example.com,Ada,36', mapping: { Email: 'email', Name: 'name', Age: 'age' } } });
    const response = await call('POST', `/api/v1/tables/${table.id}/import`, {
      cookie: member.cookie,
      body: { csv: 'Email,Age\nAda@Example.com,37\nzed@example.com,20', mapping: { Email: 'email', Age: 'age' }, mode: 'upsert' },
    });
    expect(response.body).toMatchObject({ inserted: 1, updated: 1, rejectedCount: 0 });
    expect((await rowsOf(table.id)).map((row) => row.cells)).toEqual([
      { email: 'Ada@Example.com', name: 'Ada', age: 37 },
      { email: 'zed@example.com', age: 20 },
    ]);
  });

  it('answers 409 tables.key_column_missing for an upsert into a table without key', async () => {
    const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: `Plain ${Math.random()}`, columns: [{ label: 'A' }] } });
    const result = await call('POST', `/api/v1/tables/${response.body.table.id}/import`, { cookie: member.cookie, body: { csv: 'A\nx', mapping: { A: 'a' }, mode: 'upsert' } });
    expect(result.status).toBe(409);
    expect(result.body.error.code).toBe('tables.key_column_missing');
  });

  it('answers 400 for a mapping to an unknown column', async () => {
    const table = await newTable();
    const result = await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv, mapping: { Email: 'nope' } } });
    expect(result.body.error.details.reason).toBe('invalid_mapping');
  });
});

describe('GET /api/v1/tables/{id}/export.csv', () => {
  it('downloads labels then rows in creation order, quoting as CSV needs, for a tables:read key', async () => {
    const table = await newTable();
    await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv, mapping, skipInvalid: true } });
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const response = await requestTableExport(table.slug, { key: secret });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${table.slug}.csv"`);
    expect(await response.text()).toBe('Email,Name,Age,Active\nada@example.com,Ada,36,true\ndee@example.com,"Dee, Jr.",,\n');
  });

  it('exports a view: only the rows matching q and filter, in the sort of the view', async () => {
    const table = await newTable();
    const lines = ['Email,Full name,Age,Active', 'ada@example.com,Ada,36,yes', 'bo@example.com,Bo,19,no', 'cy@example.com,Cy,52,yes', 'di@example.org,Di,44,yes'];
    expect((await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv: lines.join('\n'), mapping } })).status).toBe(200);
    const view = new URLSearchParams({ q: 'example.com', filter: JSON.stringify([{ column: 'active', op: 'eq', value: true }]), sort: 'age', dir: 'desc' });
    const response = await requestTableExport(table.id, { cookie: member.cookie, query: Object.fromEntries(view) });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Email,Name,Age,Active\ncy@example.com,Cy,52,true\nada@example.com,Ada,36,true\n');
  });

  it('answers 400 request.bad_request for a bad view before sending anything', async () => {
    const table = await newTable();
    const badFilter = await requestTableExport(table.id, { cookie: member.cookie, query: { filter: '[{"column":"nope","op":"eq","value":1}]' } });
    expect(badFilter.status).toBe(400);
    expect((await badFilter.json()).error).toMatchObject({ code: 'request.bad_request', details: { index: 0, reason: 'unknown_column' } });
    const badDir = await requestTableExport(table.id, { cookie: member.cookie, query: { dir: 'sideways' } });
    expect(badDir.status).toBe(400);
    expect((await badDir.json()).error.details.issues[0]).toMatchObject({ path: 'dir' });
    const unknownParameter = await requestTableExport(table.id, { cookie: member.cookie, query: { limit: '5' } });
    expect(unknownParameter.status).toBe(400);
  });

  it('refuses without credential (401), a key without tables:read (403), an unknown table (404)', async () => {
    const table = await newTable();
    expect((await requestTableExport(table.id)).status).toBe(401);
    const { secret } = await createApiKeyFor(member, ['contacts:read']);
    const forbidden = await requestTableExport(table.id, { key: secret });
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'tables:read' } });
    const missing = await requestTableExport('no-such-table', { cookie: member.cookie });
    expect(missing.status).toBe(404);
  });
});
