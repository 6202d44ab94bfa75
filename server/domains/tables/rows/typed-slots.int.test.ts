/**
 * Typed slots in storage: every write path keeps them equal to the cells, structure changes move and
 * clear them, tables written before slots existed are backfilled, and the rows query answers the
 * same through slots as through JSONB.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import type { Cells } from './cells';
import { insertRow, upsertRow } from './engine-api';
import { storedColumnsOf } from '../schemas';
import { numberSlots, parseTypedSlots, slotValuesOf, textSlots } from './typed-slots';
import { backfillTypedSlots } from './typed-slots-backfill';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

const columnsInput = [
  { label: 'Name', required: true },
  { label: 'Email', type: 'email', isKey: true },
  { label: 'Score', type: 'number' },
  { label: 'Active', type: 'boolean' },
  { label: 'Plan', type: 'select', options: ['free', 'pro', 'team'] },
  { label: 'Joined', type: 'date' },
  { label: 'Seen', type: 'datetime' },
];

async function newTable(name = `Slots ${randomUUID().slice(0, 8)}`) {
  const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name, columns: columnsInput } });
  expect(response.status).toBe(201);
  return response.body.table as { id: string; slug: string };
}

async function insertAll(tableId: string, rows: Cells[]) {
  const response = await call('POST', `/api/v1/tables/${tableId}/rows/batch`, { cookie: member.cookie, body: { operations: rows.map((cells) => ({ op: 'insert', cells })) } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Rows whose stored slots differ from what their cells and the table's map say (empty: all agree). */
async function slotMismatches(tableId: string) {
  const [table] = await db().$queryRaw<{ columns: unknown; typed_slots: unknown }[]>`SELECT columns, typed_slots FROM data_tables WHERE id = ${tableId}::uuid`;
  const columns = storedColumnsOf(table.columns);
  const slots = parseTypedSlots(table.typed_slots);
  const rows = await db().$queryRawUnsafe<Record<string, unknown>[]>(`SELECT id, cells, ${[...numberSlots, ...textSlots].join(', ')} FROM table_rows WHERE table_id = $1::uuid`, tableId);
  return rows.flatMap((row) => {
    const expected = slotValuesOf(columns, slots, row.cells as Cells);
    const stored = Object.fromEntries([...numberSlots, ...textSlots].filter((slot) => row[slot] !== null).map((slot) => [slot, row[slot]]));
    return JSON.stringify(stored, Object.keys(stored).sort()) === JSON.stringify(expected, Object.keys(expected).sort()) ? [] : [{ id: row.id, stored, expected }];
  });
}

async function slotsOf(tableId: string) {
  const slots = parseTypedSlots((await db().dataTable.findUniqueOrThrow({ where: { id: tableId } })).typedSlots);
  return slots && Object.fromEntries(slots);
}

const people: Cells[] = [
  { name: 'alice', email: 'Alice@Acme.test', score: 100, active: true, plan: 'pro', joined: '2024-01-15', seen: '2025-03-01T10:00:00.000Z' },
  { name: 'Bob', email: 'bob@acme.test', score: 9, active: false, plan: 'free', joined: '2023-12-31' },
  { name: 'carol', email: 'carol@globex.test', score: 10, plan: 'team', seen: '2024-12-31T23:59:59.000Z' },
  { name: 'Dave', email: 'dave@globex.test', score: -5, active: true, joined: '2022-02-28' },
  { name: 'eve', score: 2.5, plan: 'pro' },
  { name: 'Frank', email: 'frank@initech.test', active: false, joined: '2024-01-15', seen: '2025-01-01T00:00:00.000Z' },
  { name: 'grace', email: 'grace@acme.test', score: 10, active: true, plan: 'team', joined: '2021-07-04' },
];

describe('every write keeps the slots equal to the cells', () => {
  it('insert, update, upsert, batch, CSV import (insert and upsert) and the engine API', async () => {
    const table = await newTable();
    await insertAll(table.id, people.slice(0, 3));
    const created = await call('POST', `/api/v1/tables/${table.id}/rows`, { cookie: member.cookie, body: { cells: { name: 'Zoé', score: 1 } } });
    expect(created.status).toBe(201);
    const rowId = created.body.row.id as string;
    expect((await call('PATCH', `/api/v1/tables/${table.id}/rows/${rowId}`, { cookie: member.cookie, body: { cells: { score: null, plan: 'team' } } })).status).toBe(200);
    expect((await call('POST', `/api/v1/tables/${table.id}/rows/upsert`, { cookie: member.cookie, body: { cells: { email: 'bob@acme.test', name: 'Robert', score: 11 } } })).status).toBe(200);
    const csv = ['Name,Email,Score', 'Heidi,heidi@umbrella.test,55', 'Carol B.,carol@globex.test,12'].join('\n');
    const mapping = { Name: 'name', Email: 'email', Score: 'score' };
    const imported = await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv, mapping, mode: 'upsert' } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const writer = { kind: 'execution' as const, executionId: `exec-${randomUUID()}`, memberId: member.id };
    await insertRow(table.id, { name: 'Ivan', score: 0, active: false }, writer, `effect-${randomUUID()}`);
    await upsertRow(table.id, { email: 'dave@globex.test', name: 'Dave', score: 3 }, writer, `effect-${randomUUID()}`);

    expect((await db().tableRow.count({ where: { tableId: table.id } }))).toBe(7);
    expect(await slotMismatches(table.id)).toEqual([]);
  });
});

describe('structure changes', () => {
  it('a type change to another kind moves the column to a slot of that kind and fills it', async () => {
    const table = await newTable();
    await insertAll(table.id, people);
    const before = (await slotsOf(table.id))!;
    expect(before.score).toMatch(/^n/);
    const changed = await call('PATCH', `/api/v1/tables/${table.id}/columns/score`, { cookie: admin.cookie, body: { type: 'text' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const after = (await slotsOf(table.id))!;
    expect(after.score).toMatch(/^t/);
    expect(await slotMismatches(table.id)).toEqual([]);
    const filter = encodeURIComponent(JSON.stringify([{ column: 'score', op: 'starts_with', value: '10' }]));
    const rows = await call('GET', `/api/v1/tables/${table.id}/rows?filter=${filter}&sort=name`, { cookie: member.cookie });
    expect(rows.body.rows.map((row: { cells: Cells }) => row.cells.name)).toEqual(['alice', 'carol', 'grace']);
  });

  it('a removed column frees its slot with no value left behind for the next column that takes it', async () => {
    const table = await newTable();
    await insertAll(table.id, people);
    const freed = (await slotsOf(table.id))!.plan;
    expect((await call('DELETE', `/api/v1/tables/${table.id}/columns/plan`, { cookie: admin.cookie })).status).toBe(200);
    const added = await call('POST', `/api/v1/tables/${table.id}/columns`, { cookie: admin.cookie, body: { column: { label: 'Region' } } });
    expect(added.status).toBe(201);
    expect((await slotsOf(table.id))!.region).toBe(freed);
    const filter = encodeURIComponent(JSON.stringify([{ column: 'region', op: 'not_empty' }]));
    const rows = await call('GET', `/api/v1/tables/${table.id}/rows?filter=${filter}`, { cookie: member.cookie });
    expect(rows.body.total).toBe(0);
    expect(await slotMismatches(table.id)).toEqual([]);
  });

  it('reordering columns keeps every slot', async () => {
    const table = await newTable();
    await insertAll(table.id, people);
    const before = await slotsOf(table.id);
    const keys = ['seen', 'joined', 'plan', 'active', 'score', 'email', 'name'];
    expect((await call('POST', `/api/v1/tables/${table.id}/columns/reorder`, { cookie: admin.cookie, body: { keys } })).status).toBe(200);
    expect(await slotsOf(table.id)).toEqual(before);
  });
});

describe('tables written before typed slots existed', () => {
  async function legacyTable() {
    const table = await newTable();
    await insertAll(table.id, people);
    // As the migration leaves them: no map, no slot values.
    await db().$executeRaw`UPDATE data_tables SET typed_slots = NULL WHERE id = ${table.id}::uuid`;
    await db().$executeRawUnsafe(`UPDATE table_rows SET ${[...numberSlots, ...textSlots].map((slot) => `${slot} = NULL`).join(', ')} WHERE table_id = $1::uuid`, table.id);
    return table;
  }

  it('are queried through JSONB until the backfill gives them slots, then through the slots, with the same answers', async () => {
    const table = await legacyTable();
    const query = `filter=${encodeURIComponent(JSON.stringify([{ column: 'score', op: 'gte', value: 9 }, { column: 'email', op: 'contains', value: 'ACME' }]))}&sort=score&dir=desc`;
    const before = await call('GET', `/api/v1/tables/${table.id}/rows?${query}`, { cookie: member.cookie });
    expect(before.body.rows.map((row: { cells: Cells }) => row.cells.name)).toEqual(['alice', 'grace', 'Bob']);

    expect(await backfillTypedSlots()).toBeGreaterThanOrEqual(1);
    expect(await slotsOf(table.id)).not.toBeNull();
    expect(await slotMismatches(table.id)).toEqual([]);
    const after = await call('GET', `/api/v1/tables/${table.id}/rows?${query}`, { cookie: member.cookie });
    expect(after.body).toEqual(before.body);
    expect(await backfillTypedSlots()).toBe(0);
  });

  it('get their slots first when an administrator changes their structure', async () => {
    const table = await legacyTable();
    const renamed = await call('PATCH', `/api/v1/tables/${table.id}/columns/name`, { cookie: admin.cookie, body: { label: 'Full name' } });
    expect(renamed.status).toBe(200);
    expect(await slotsOf(table.id)).not.toBeNull();
    expect(await slotMismatches(table.id)).toEqual([]);
  });
});

describe('the rows query answers the same through slots and through JSONB', () => {
  let typed: { id: string };
  let legacy: { id: string };
  beforeAll(async () => {
    typed = await newTable();
    legacy = await newTable();
    for (const table of [typed, legacy]) await insertAll(table.id, people);
    await db().$executeRaw`UPDATE data_tables SET typed_slots = NULL WHERE id = ${legacy.id}::uuid`;
  });

  const cases: [string, Record<string, string>][] = [
    ['text eq / neq / contains / starts_with / in (case-insensitive)', { filter: JSON.stringify([{ column: 'name', op: 'neq', value: 'BOB' }, { column: 'name', op: 'contains', value: 'A' }]), sort: 'name' }],
    ['text starts_with and in', { filter: JSON.stringify([{ column: 'name', op: 'starts_with', value: 'g' }, { column: 'name', op: 'in', values: ['DAVE', 'eve'] }]), match: 'any', sort: 'name', dir: 'desc' }],
    ['email', { filter: JSON.stringify([{ column: 'email', op: 'eq', value: 'alice@acme.TEST' }]) }],
    ['number ranges, between, in, neq', { filter: JSON.stringify([{ column: 'score', op: 'between', values: [0, 50] }, { column: 'score', op: 'neq', value: 10 }]), sort: 'score' }],
    ['number in, sorted descending with empties last', { filter: JSON.stringify([{ column: 'score', op: 'in', values: [10, 100, -5] }]), sort: 'score', dir: 'desc' }],
    ['empty and not empty', { filter: JSON.stringify([{ column: 'plan', op: 'empty' }, { column: 'seen', op: 'not_empty' }]), match: 'any', sort: 'plan' }],
    ['boolean', { filter: JSON.stringify([{ column: 'active', op: 'eq', value: false }]), sort: 'active' }],
    ['select neq includes empty cells', { filter: JSON.stringify([{ column: 'plan', op: 'neq', value: 'pro' }]), sort: 'joined', dir: 'desc' }],
    ['date and date-time ranges', { filter: JSON.stringify([{ column: 'joined', op: 'gte', value: '2023-01-01' }, { column: 'seen', op: 'lt', value: '2025-02-01' }]), match: 'any', sort: 'seen' }],
    ['q with a filter and a sort', { q: 'acme', filter: JSON.stringify([{ column: 'score', op: 'gt', value: 0 }]), sort: 'email' }],
    ['a sort alone, empties last', { sort: 'joined' }],
  ];

  it.each(cases)('%s', async (_name, query) => {
    const path = (id: string) => `/api/v1/tables/${id}/rows?${new URLSearchParams(query)}`;
    const [fromSlots, fromCells] = [await call('GET', path(typed.id), { cookie: member.cookie }), await call('GET', path(legacy.id), { cookie: member.cookie })];
    expect(fromSlots.status, JSON.stringify(fromSlots.body)).toBe(200);
    expect(fromSlots.body.total).toBe(fromCells.body.total);
    const names = (body: { rows: { cells: Cells }[] }) => body.rows.map((row) => row.cells.name);
    expect(names(fromSlots.body)).toEqual(names(fromCells.body));
  });

  it('folds the case of any script through slots (ÉMILE finds émile and Émile)', async () => {
    const table = await newTable();
    await insertAll(table.id, [{ name: 'émile' }, { name: 'Émile' }, { name: 'emile' }]);
    const filter = encodeURIComponent(JSON.stringify([{ column: 'name', op: 'eq', value: 'ÉMILE' }]));
    const response = await call('GET', `/api/v1/tables/${table.id}/rows?filter=${filter}`, { cookie: member.cookie });
    expect(response.body.rows.map((row: { cells: Cells }) => row.cells.name).sort()).toEqual(['Émile', 'émile']);
  });
});
