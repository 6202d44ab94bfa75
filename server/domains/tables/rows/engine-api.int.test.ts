/** The workflow engine's table API: lookup by key, and writes applied at most once per effect key. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { AppError } from '../../../core/errors/app-error';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { insertRow, lookupByKey, updateRow, upsertRow, type ExecutionWriter } from './engine-api';

await useTestDatabase();

let admin: TestMember;
let owner: TestMember;
let writer: ExecutionWriter;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  owner = await createMember();
  writer = { kind: 'execution', executionId: 'exec-1', memberId: owner.id };
});

async function newTable(extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: {
      name: `Leads ${Math.random()}`,
      columns: [{ label: 'Email', type: 'email', isKey: true }, { label: 'Name', required: true }, { label: 'Visits', type: 'number' }],
      ...extra,
    },
  });
  return response.body.table as { id: string; slug: string };
}

const rowsOf = (tableId: string) => db().tableRow.findMany({ where: { tableId } });
const effectKey = () => `step-${randomUUID()}`;

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('engine insertRow', () => {
  it('writes the row as the execution (createdBy/updatedBy), audited for the member with the execution id', async () => {
    const table = await newTable();
    const result = await insertRow(table.slug, { email: 'ada@example.com', name: 'Ada' }, writer, effectKey());
    expect(result.replayed).toBe(false);
    expect(result.row).toMatchObject({ cells: { email: 'ada@example.com', name: 'Ada' }, createdBy: { kind: 'execution', id: 'exec-1' }, updatedBy: { kind: 'execution', id: 'exec-1' } });
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'table.row_created', targetId: table.id } });
    expect(entry).toMatchObject({ actorKind: 'member', actorMemberId: owner.id, details: { rowId: result.row.id, executionId: 'exec-1' } });
    expect((await db().dataTable.findUniqueOrThrow({ where: { id: table.id } })).rowCount).toBe(1);
  });

  it('does not write twice when a step is retried with the same effect key, and answers the first result', async () => {
    const table = await newTable({ keyUnique: false });
    const key = effectKey();
    const first = await insertRow(table.id, { email: 'retry@example.com', name: 'First' }, writer, key);
    const retried = await insertRow(table.id, { email: 'retry@example.com', name: 'First' }, writer, key);
    expect(retried).toEqual({ ...first, replayed: true });
    expect(await rowsOf(table.id)).toHaveLength(1);
    expect(await db().auditEntry.count({ where: { action: 'table.row_created', targetId: table.id } })).toBe(1);
    expect((await db().dataTable.findUniqueOrThrow({ where: { id: table.id } })).rowCount).toBe(1);
  });

  it('applies concurrent attempts with one effect key once', async () => {
    const table = await newTable({ keyUnique: false });
    const key = effectKey();
    const results = await Promise.all(Array.from({ length: 6 }, () => insertRow(table.id, { name: 'Once' }, writer, key)));
    expect(new Set(results.map((result) => result.row.id)).size).toBe(1);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(await rowsOf(table.id)).toHaveLength(1);
  });

  it('leaves nothing behind when the attempt fails, so the retry writes', async () => {
    const table = await newTable();
    const key = effectKey();
    const failed = await rejection(insertRow(table.id, { email: 'x@example.com' }, writer, key));
    expect(failed.code).toBe('tables.invalid_cells');
    expect(await db().tableWriteEffect.count({ where: { effectKey: key } })).toBe(0);
    const retried = await insertRow(table.id, { email: 'x@example.com', name: 'Fixed' }, writer, key);
    expect(retried.replayed).toBe(false);
    expect(await rowsOf(table.id)).toHaveLength(1);
  });

  it('refuses to replay an effect key recorded for another kind of write', async () => {
    const table = await newTable({ keyUnique: false });
    const key = effectKey();
    await insertRow(table.id, { name: 'A' }, writer, key);
    await expect(upsertRow(table.id, { email: 'a@example.com', name: 'A' }, writer, key)).rejects.toThrow(/used for a table insert/);
  });
});

describe('engine updateRow', () => {
  it('answers the first result on a retry even after the row changed since', async () => {
    const table = await newTable();
    const { row } = await insertRow(table.id, { email: 'u@example.com', name: 'U', visits: 1 }, writer, effectKey());
    const key = effectKey();
    const first = await updateRow(table.id, row.id, { visits: 2 }, writer, key);
    await updateRow(table.id, row.id, { visits: 3 }, writer, effectKey());
    const retried = await updateRow(table.id, row.id, { visits: 2 }, writer, key);
    expect(retried).toEqual({ ...first, replayed: true });
    expect(retried.row.cells.visits).toBe(2);
    expect((await db().tableRow.findUniqueOrThrow({ where: { id: row.id } })).cells).toMatchObject({ visits: 3 });
    expect(await db().auditEntry.count({ where: { action: 'table.row_updated', targetId: table.id } })).toBe(2);
  });

  it('answers tables.row_not_found for a row that does not exist', async () => {
    const table = await newTable();
    expect((await rejection(updateRow(table.id, randomUUID(), { name: 'x' }, writer, effectKey()))).code).toBe('tables.row_not_found');
  });
});

describe('engine upsertRow', () => {
  it('inserts then updates by key; a retried step gets created: true again and nothing more is written', async () => {
    const table = await newTable();
    const key = effectKey();
    const first = await upsertRow(table.id, { email: 'Lead@Example.com', name: 'Lead', visits: 1 }, writer, key);
    expect(first).toMatchObject({ created: true, replayed: false });
    const retried = await upsertRow(table.id, { email: 'Lead@Example.com', name: 'Lead', visits: 1 }, writer, key);
    expect(retried).toEqual({ ...first, replayed: true });
    const next = await upsertRow(table.id, { email: 'lead@example.com', visits: 2 }, writer, effectKey());
    expect(next).toMatchObject({ created: false, replayed: false, row: { id: first.row.id, cells: { name: 'Lead', visits: 2 } } });
    expect(await rowsOf(table.id)).toHaveLength(1);
  });

  it('answers tables.key_column_missing without key column', async () => {
    const table = await newTable({ columns: [{ label: 'Name' }] });
    expect((await rejection(upsertRow(table.id, { name: 'x' }, writer, effectKey()))).code).toBe('tables.key_column_missing');
  });
});

describe('engine lookupByKey', () => {
  it('finds the row by its key cell (emails case-insensitively), or answers null', async () => {
    const table = await newTable({ keyUnique: false });
    const older = await insertRow(table.id, { email: 'find@example.com', name: 'Older' }, writer, effectKey());
    await insertRow(table.id, { email: 'find@example.com', name: 'Newer' }, writer, effectKey());
    expect((await lookupByKey(table.slug, 'FIND@example.com')).row).toEqual(older.row);
    expect((await lookupByKey(table.id, 'nobody@example.com')).row).toBeNull();
  });

  it('compares number keys by value', async () => {
    const table = await newTable({ columns: [{ label: 'Code', type: 'number', isKey: true }, { label: 'Label' }] });
    const { row } = await insertRow(table.id, { code: 42, label: 'answer' }, writer, effectKey());
    expect((await lookupByKey(table.id, 42)).row?.id).toBe(row.id);
    expect((await rejection(lookupByKey(table.id, 'forty-two'))).code).toBe('tables.invalid_cells');
  });

  it('answers tables.key_column_missing without key column and tables.not_found for an unknown table', async () => {
    const table = await newTable({ columns: [{ label: 'Name' }] });
    expect((await rejection(lookupByKey(table.id, 'x'))).code).toBe('tables.key_column_missing');
    expect((await rejection(lookupByKey('no-such-table', 'x'))).code).toBe('tables.not_found');
  });
});
