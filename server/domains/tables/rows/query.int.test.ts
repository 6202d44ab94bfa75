/** GET /api/v1/tables/{id}/rows: offset pagination, sort, q, filter and match, totals, limits. */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let table: { id: string; slug: string };

type Cells = Record<string, string | number | boolean>;

/** Twelve people; the comments say what each row is there to test. */
const people: Cells[] = [
  { name: 'alice', email: 'alice@acme.test', score: 100, active: true, plan: 'pro', joined: '2024-01-15', seen: '2025-03-01T10:00:00.000Z', note: 'Prefers email contact' },
  { name: 'Bob', email: 'bob@acme.test', score: 9, active: false, plan: 'free', joined: '2023-12-31', seen: '2025-03-01T09:00:00.000Z', note: 'Called twice' },
  { name: 'carol', email: 'carol@globex.test', score: 10, active: true, plan: 'team', joined: '2024-06-01', note: 'Renewal in June' },
  { name: 'Dave', email: 'dave@globex.test', score: -5, active: true, plan: 'free', joined: '2022-02-28', seen: '2024-12-31T23:59:59.000Z' },
  { name: 'Eve', email: 'eve@initech.test', score: 2.5, plan: 'pro', note: 'VIP, email only' },
  { name: 'frank', email: 'frank@initech.test', active: false, joined: '2024-01-15', note: 'Moved to Lyon' },
  { name: 'Grace', email: 'grace@acme.test', score: 10, active: true, plan: 'team', joined: '2021-07-04', seen: '2025-01-01T00:00:00.000Z' },
  { name: 'heidi', email: 'heidi@umbrella.test', score: 55, plan: 'free', joined: '2024-03-03' },
  { name: 'Ivan', email: 'ivan@umbrella.test', score: 0, active: false, note: 'Renewal refused' },
  { name: 'judy', email: 'judy@acme.test', score: 77, active: true, plan: 'pro', joined: '2020-01-01', seen: '2023-05-05T05:05:05.000Z', note: "O'Brien's colleague" },
  { name: 'Mallory', email: 'mallory@evil.test', score: 1000, plan: 'team', note: 'Robert\'); DROP TABLE table_rows;--' },
  { name: 'Niaj', email: 'niaj@acme.test', score: 10, active: true, joined: '2024-06-01', note: 'email bounced' },
];

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  const created = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: {
      name: 'People',
      columns: [
        { label: 'Name', required: true },
        { label: 'Email', type: 'email', isKey: true },
        { label: 'Score', type: 'number' },
        { label: 'Active', type: 'boolean' },
        { label: 'Plan', type: 'select', options: ['free', 'pro', 'team'] },
        { label: 'Joined', type: 'date' },
        { label: 'Seen', type: 'datetime' },
        { label: 'Note' },
      ],
    },
  });
  table = created.body.table;
  const response = await call('POST', `/api/v1/tables/${table.id}/rows/batch`, {
    cookie: member.cookie,
    body: { operations: people.map((cells) => ({ op: 'insert', cells })) },
  });
  expect(response.status).toBe(200);
});

interface Query {
  offset?: number | string;
  limit?: number | string;
  sort?: string;
  dir?: string;
  q?: string;
  filter?: unknown;
  match?: string;
}

function list(query: Query = {}, options: { key?: string } = {}) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(name, name === 'filter' && typeof value !== 'string' ? JSON.stringify(value) : String(value));
  }
  return call('GET', `/api/v1/tables/${table.id}/rows?${params}`, options.key ? { key: options.key } : { cookie: member.cookie });
}

async function names(query: Query = {}): Promise<string[]> {
  const response = await list({ limit: 500, ...query });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.rows.map((row: { cells: Cells }) => row.cells.name);
}

const byName = (...list: string[]) => [...list].sort();

describe('pagination', () => {
  it('answers {rows, total, totalUnfiltered, offset, limit} in creation order by default (limit 100)', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 12, totalUnfiltered: 12, offset: 0, limit: 100 });
    expect(response.body.rows.map((row: { cells: Cells }) => row.cells.name)).toEqual(people.map((person) => person.name));
    expect(response.body.rows[0]).toEqual({
      id: expect.any(String),
      cells: people[0],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      createdBy: { kind: 'member', id: member.id },
      updatedBy: { kind: 'member', id: member.id },
    });
  });

  it('pages with offset and limit; the last page is short', async () => {
    const pages = [];
    for (let offset = 0; offset < 12; offset += 5) pages.push((await list({ offset, limit: 5 })).body);
    expect(pages.map((page) => page.rows.length)).toEqual([5, 5, 2]);
    expect(pages.flatMap((page) => page.rows.map((row: { cells: Cells }) => row.cells.name))).toEqual(people.map((person) => person.name));
    expect(pages[2]).toMatchObject({ offset: 10, limit: 5, total: 12 });
  });

  it('answers 400 tables.page_out_of_range for an offset at or beyond the total, with the total', async () => {
    for (const query of [{ offset: 12 }, { offset: 50, limit: 5 }, { offset: 100000 }, { offset: 3, filter: [{ column: 'plan', op: 'eq', value: 'pro' }] }]) {
      const response = await list(query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.error.code).toBe('tables.page_out_of_range');
    }
    expect((await list({ offset: 50, limit: 5 })).body.error.details).toMatchObject({ offset: 50, total: 12, lastPageOffset: 10 });
  });

  it('answers offset 0 of an empty result as an empty page (total 0), not an error', async () => {
    const response = await list({ filter: [{ column: 'name', op: 'eq', value: 'nobody' }] });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ rows: [], total: 0, totalUnfiltered: 12, offset: 0 });
  });

  it.each([
    ['offset 100001', { offset: 100001 }],
    ['offset -1', { offset: -1 }],
    ['limit 0', { limit: 0 }],
    ['limit 501', { limit: 501 }],
    ['limit 1.5', { limit: '1.5' }],
    ['dir sideways', { dir: 'sideways' }],
    ['match some', { match: 'some' }],
    ['a q of 201 characters', { q: 'x'.repeat(201) }],
  ])('answers 400 request.bad_request for %s', async (_name, query) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('accepts the bounds: limit 500, offset 0, a q of 200 characters', async () => {
    expect((await list({ limit: 500 })).status).toBe(200);
    expect((await list({ q: 'a'.repeat(200) })).body.total).toBe(0);
  });

  it('reads with a tables:read key and by slug; 404 tables.not_found for an unknown table', async () => {
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const response = await call('GET', `/api/v1/tables/${table.slug}/rows?limit=1`, { key: secret });
    expect(response.status).toBe(200);
    expect(response.body.rows).toHaveLength(1);
    const missing = await call('GET', '/api/v1/tables/nope/rows', { key: secret });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('tables.not_found');
  });
});

describe('sort', () => {
  it('sorts numbers numerically (not as text), empty cells last in both directions', async () => {
    expect(await names({ sort: 'score' })).toEqual(['Dave', 'Ivan', 'Eve', 'Bob', 'carol', 'Grace', 'Niaj', 'heidi', 'judy', 'alice', 'Mallory', 'frank']);
    expect(await names({ sort: 'score', dir: 'desc' })).toEqual(['Mallory', 'alice', 'judy', 'heidi', 'Niaj', 'Grace', 'carol', 'Bob', 'Eve', 'Ivan', 'Dave', 'frank']);
  });

  it('sorts text case-insensitively', async () => {
    expect(await names({ sort: 'name' })).toEqual(['alice', 'Bob', 'carol', 'Dave', 'Eve', 'frank', 'Grace', 'heidi', 'Ivan', 'judy', 'Mallory', 'Niaj']);
  });

  it('sorts dates and date-times chronologically', async () => {
    expect(await names({ sort: 'joined' })).toEqual(['judy', 'Grace', 'Dave', 'Bob', 'alice', 'frank', 'heidi', 'carol', 'Niaj', 'Eve', 'Ivan', 'Mallory']);
    expect((await names({ sort: 'seen', dir: 'desc' })).slice(0, 5)).toEqual(['alice', 'Bob', 'Grace', 'Dave', 'judy']);
  });

  it('sorts booleans false first', async () => {
    expect(await names({ sort: 'active' })).toEqual(['Bob', 'frank', 'Ivan', 'alice', 'carol', 'Dave', 'Grace', 'judy', 'Niaj', 'Eve', 'heidi', 'Mallory']);
  });

  it('breaks ties in creation order, so pages never overlap or skip a row', async () => {
    // score 10: carol, Grace, Niaj (created in that order).
    expect((await names({ sort: 'score' })).slice(4, 7)).toEqual(['carol', 'Grace', 'Niaj']);
    const seen: string[] = [];
    for (let offset = 0; offset < 12; offset += 5) seen.push(...(await names({ sort: 'plan', offset, limit: 5 })));
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
  });

  it('sorts by createdAt (descending: newest first) and updatedAt', async () => {
    expect(await names({ sort: 'createdAt', dir: 'desc' })).toEqual(people.map((person) => person.name).reverse());
    const bob = (await list({ filter: [{ column: 'name', op: 'eq', value: 'bob' }] })).body.rows[0];
    await call('PATCH', `/api/v1/tables/${table.id}/rows/${bob.id}`, { cookie: member.cookie, body: { cells: { note: 'Called twice' } } });
    expect((await names({ sort: 'updatedAt', dir: 'desc' }))[0]).toBe('Bob');
  });

  it('answers 400 request.bad_request for a sort that is not a column', async () => {
    const response = await list({ sort: 'salary' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'request.bad_request', details: { reason: 'unknown_sort', sort: 'salary' } });
  });
});

describe('q: full-text over the cells', () => {
  it('matches each word as a prefix, all words required, across columns', async () => {
    expect(byName(...(await names({ q: 'renew' })))).toEqual(['Ivan', 'carol']);
    expect(await names({ q: 'renewal june' })).toEqual(['carol']);
    expect(byName(...(await names({ q: 'EMAIL' })))).toEqual(['Eve', 'Niaj', 'alice']);
  });

  it('finds an email address and a number, and is not confused by quotes and SQL', async () => {
    expect(await names({ q: 'heidi@umbrella.test' })).toEqual(['heidi']);
    expect(await names({ q: '1000' })).toEqual(['Mallory']);
    expect(await names({ q: "o'brien" })).toEqual(['judy']);
    expect(await names({ q: "'); DROP TABLE table_rows;--" })).toEqual(['Mallory']);
    expect(await names({ q: ':* & | ! \\' })).toHaveLength(12);
    expect(await db().tableRow.count({ where: { tableId: table.id } })).toBe(12);
  });

  it('combines with filter and reports total after both', async () => {
    const response = await list({ q: 'acme', filter: [{ column: 'active', op: 'eq', value: true }] });
    expect(response.body).toMatchObject({ total: 4, totalUnfiltered: 12 });
  });
});

describe('filter', () => {
  const filtered = (filter: unknown, match?: string) => names({ filter, match }).then((list) => list.sort());

  it('text and email: eq, neq, contains, starts_with, in (case-insensitive), empty, not_empty', async () => {
    expect(await filtered([{ column: 'name', op: 'eq', value: 'ALICE' }])).toEqual(['alice']);
    expect(await filtered([{ column: 'email', op: 'contains', value: '@GLOBEX' }])).toEqual(['Dave', 'carol']);
    expect(await filtered([{ column: 'name', op: 'starts_with', value: 'j' }])).toEqual(['judy']);
    expect(await filtered([{ column: 'name', op: 'in', values: ['bob', 'EVE', 'zed'] }])).toEqual(['Bob', 'Eve']);
    expect(await filtered([{ column: 'note', op: 'empty' }])).toEqual(['Dave', 'Grace', 'heidi']);
    expect((await filtered([{ column: 'note', op: 'not_empty' }])).length).toBe(9);
    // "not equal" includes the rows without a value.
    expect((await filtered([{ column: 'note', op: 'neq', value: 'called TWICE' }])).length).toBe(11);
  });

  it('number: comparisons, between (inclusive), in, neq keeps empty cells', async () => {
    expect(await filtered([{ column: 'score', op: 'gt', value: 77 }])).toEqual(['Mallory', 'alice']);
    expect(await filtered([{ column: 'score', op: 'gte', value: 77 }])).toEqual(['Mallory', 'alice', 'judy']);
    expect(await filtered([{ column: 'score', op: 'lt', value: 0 }])).toEqual(['Dave']);
    expect(await filtered([{ column: 'score', op: 'lte', value: 2.5 }])).toEqual(['Dave', 'Eve', 'Ivan']);
    expect(await filtered([{ column: 'score', op: 'between', values: [9, 10] }])).toEqual(['Bob', 'Grace', 'Niaj', 'carol']);
    expect(await filtered([{ column: 'score', op: 'eq', value: 10 }])).toEqual(['Grace', 'Niaj', 'carol']);
    expect(await filtered([{ column: 'score', op: 'in', values: [0, 55] }])).toEqual(['Ivan', 'heidi']);
    expect(await filtered([{ column: 'score', op: 'neq', value: 10 }])).toHaveLength(9);
    expect(await filtered([{ column: 'score', op: 'empty' }])).toEqual(['frank']);
  });

  it('date and datetime: chronological comparisons; a date against a datetime column means midnight UTC', async () => {
    expect(await filtered([{ column: 'joined', op: 'lt', value: '2022-01-01' }])).toEqual(['Grace', 'judy']);
    expect(await filtered([{ column: 'joined', op: 'eq', value: '2024-01-15' }])).toEqual(['alice', 'frank']);
    expect(await filtered([{ column: 'joined', op: 'between', values: ['2024-01-01', '2024-03-31'] }])).toEqual(['alice', 'frank', 'heidi']);
    expect(await filtered([{ column: 'seen', op: 'gte', value: '2025-01-01' }])).toEqual(['Bob', 'Grace', 'alice']);
    expect(await filtered([{ column: 'seen', op: 'gt', value: '2025-03-01T10:00:00+01:00' }])).toEqual(['alice']);
    expect(await filtered([{ column: 'seen', op: 'eq', value: '2025-03-01T09:00:00Z' }])).toEqual(['Bob']);
  });

  it('boolean and select: eq, neq, in, empty', async () => {
    expect(await filtered([{ column: 'active', op: 'eq', value: false }])).toEqual(['Bob', 'Ivan', 'frank']);
    expect(await filtered([{ column: 'active', op: 'empty' }])).toEqual(['Eve', 'Mallory', 'heidi']);
    expect(await filtered([{ column: 'plan', op: 'in', values: ['team', 'pro'] }])).toEqual(['Eve', 'Grace', 'Mallory', 'alice', 'carol', 'judy']);
    expect(await filtered([{ column: 'plan', op: 'neq', value: 'free' }])).toHaveLength(9);
  });

  it('createdAt and updatedAt filter like date-times', async () => {
    expect(await filtered([{ column: 'createdAt', op: 'lt', value: '2000-01-01' }])).toEqual([]);
    expect(await filtered([{ column: 'createdAt', op: 'gte', value: '2000-01-01' }])).toHaveLength(12);
  });

  it('joins conditions with match: all (default) or any', async () => {
    const conditions = [
      { column: 'plan', op: 'eq', value: 'pro' },
      { column: 'name', op: 'starts_with', value: 'a' },
      { column: 'score', op: 'gte', value: 50 },
    ];
    expect(await filtered(conditions)).toEqual(['alice']);
    expect(await filtered(conditions, 'any')).toEqual(['Eve', 'Mallory', 'alice', 'heidi', 'judy']);
  });

  it('takes 20 conditions; 21 are 400 request.bad_request', async () => {
    const twenty = Array.from({ length: 20 }, () => ({ column: 'score', op: 'gte', value: 0 }));
    expect((await list({ filter: twenty })).body.total).toBe(10);
    const response = await list({ filter: [...twenty, { column: 'name', op: 'not_empty' }] });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'request.bad_request', details: { reason: 'too_many_conditions', max: 20 } });
  });

  it.each([
    ['bad JSON', '[{"column":', { reason: 'invalid_json' }],
    ['not an array', '{"column":"name"}', { reason: 'invalid_condition' }],
    ['an unknown operator', [{ column: 'name', op: 'like', value: 'a' }], { index: 0, reason: 'invalid_condition' }],
    ['an unknown column', [{ column: 'name', op: 'eq', value: 'a' }, { column: 'salary', op: 'gt', value: 1 }], { index: 1, reason: 'unknown_column', column: 'salary' }],
    ['gt on a text column', [{ column: 'name', op: 'gt', value: 'a' }], { index: 0, reason: 'operator_not_allowed' }],
    ['contains on a number column', [{ column: 'score', op: 'contains', value: 1 }], { index: 0, reason: 'operator_not_allowed' }],
    ['neq on a boolean column', [{ column: 'active', op: 'neq', value: true }], { index: 0, reason: 'operator_not_allowed' }],
    ['contains on a select column', [{ column: 'plan', op: 'contains', value: 'p' }], { index: 0, reason: 'operator_not_allowed' }],
    ['a text value for a number', [{ column: 'score', op: 'gt', value: '5' }], { index: 0, reason: 'invalid_value' }],
    ['a number for a text column', [{ column: 'name', op: 'eq', value: 5 }], { index: 0, reason: 'invalid_value' }],
    ['an impossible date', [{ column: 'joined', op: 'eq', value: '2023-02-30' }], { index: 0, reason: 'invalid_value' }],
    ['a datetime without zone', [{ column: 'seen', op: 'gt', value: '2025-01-01T10:00' }], { index: 0, reason: 'invalid_value' }],
    ['a text for a boolean', [{ column: 'active', op: 'eq', value: 'true' }], { index: 0, reason: 'invalid_value' }],
    ['eq without value', [{ column: 'name', op: 'eq' }], { index: 0, reason: 'value_required' }],
    ['in without values', [{ column: 'plan', op: 'in', value: 'pro' }], { index: 0, reason: 'values_required' }],
    ['between with one value', [{ column: 'score', op: 'between', values: [1] }], { index: 0, reason: 'invalid_value' }],
    ['an unexpected field', [{ column: 'name', op: 'eq', value: 'a', extra: 1 }], { index: 0, reason: 'invalid_condition' }],
    // Found by the fuzz: JSON escapes become text PostgreSQL cannot store only once the filter is parsed.
    ['a NUL in a value (JSON escape)', '[{"column":"name","op":"eq","value":"a\\u0000b"}]', { index: 0, reason: 'unstorable_text' }],
    ['a lone surrogate in a value (JSON escape)', '[{"column":"name","op":"contains","value":"\\ud800"}]', { index: 0, reason: 'unstorable_text' }],
  ])('answers 400 request.bad_request naming the condition for %s', async (_name, filter, details) => {
    const response = await list({ filter });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'request.bad_request', details });
  });

  it('treats values and column-like strings as data, never as SQL', async () => {
    const hostile = "x') OR 1=1 --";
    expect(await filtered([{ column: 'name', op: 'eq', value: hostile }])).toEqual([]);
    expect(await filtered([{ column: 'note', op: 'contains', value: 'DROP TABLE' }])).toEqual(['Mallory']);
    expect(await filtered([{ column: 'plan', op: 'eq', value: '" || true || "' }])).toEqual([]);
    const response = await list({ filter: [{ column: "name') OR true --", op: 'eq', value: 'a' }] });
    expect(response.body.error.details.reason).toBe('unknown_column');
  });
});

describe('a number cell that is not a number (never written by the service) in a table read through JSONB', () => {
  it('still sorts and filters: such cells count as empty instead of failing the query', async () => {
    const created = await call('POST', '/api/v1/tables', {
      cookie: admin.cookie,
      body: { name: 'Odd numbers', columns: [{ label: 'Label' }, { label: 'Amount', type: 'number' }] },
    });
    const odd = created.body.table as { id: string };
    await call('POST', `/api/v1/tables/${odd.id}/rows/batch`, {
      cookie: member.cookie,
      body: { operations: [{ op: 'insert', cells: { label: 'two', amount: 2 } }, { op: 'insert', cells: { label: 'odd', amount: 1 } }, { op: 'insert', cells: { label: 'one', amount: 1 } }] },
    });
    // Typed slots hold only numbers: the JSONB reading (a table without slots) is the one at risk.
    await db().$executeRaw`UPDATE data_tables SET typed_slots = NULL WHERE id = ${odd.id}::uuid`;
    await db().$executeRaw`UPDATE table_rows SET cells = jsonb_set(cells, '{amount}', '"n/a"') WHERE table_id = ${odd.id}::uuid AND cells->>'label' = 'odd'`;
    const sorted = await call('GET', `/api/v1/tables/${odd.id}/rows?sort=amount`, { cookie: member.cookie });
    expect(sorted.status).toBe(200);
    expect(sorted.body.rows.map((row: { cells: Cells }) => row.cells.label)).toEqual(['one', 'two', 'odd']);
    const filter = encodeURIComponent(JSON.stringify([{ column: 'amount', op: 'gte', value: 1 }]));
    const filtered = await call('GET', `/api/v1/tables/${odd.id}/rows?filter=${filter}`, { cookie: member.cookie });
    expect(filtered.status).toBe(200);
    expect(filtered.body.total).toBe(2);
  });
});
