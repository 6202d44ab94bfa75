/**
 * Hostile CSV files: the importer and the preview stop at the row ceiling, bound every line, and run
 * one import of a table at a time. The instance's row ceiling is lowered to 50 for this file.
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

process.env.TABLES_MAX_ROWS = '50';
const databaseUrl = await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

async function newTable(columns: unknown[] = [{ key: 'code', label: 'Code' }]) {
  const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: `Bounds ${Math.random()}`, columns } });
  expect(response.status).toBe(201);
  return response.body.table as { id: string };
}

const lines = (count: number, prefix = 'k') => Array.from({ length: count }, (_, index) => `${prefix}${index + 1}`).join('\n');
const preview = (tableId: string, csv: string) => call('POST', `/api/v1/tables/${tableId}/import/preview`, { cookie: member.cookie, body: { csv } });
const importFile = (tableId: string, csv: string, extra: Record<string, unknown> = {}) =>
  call('POST', `/api/v1/tables/${tableId}/import`, { cookie: member.cookie, body: { csv, mapping: { Code: 'code' }, ...extra } });

describe('hardening 7: a CSV file is read as a stream under ceilings, one import of a table at a time', () => {
  it('previews a file within the row ceiling, and refuses one line more with 409 tables.limit_reached', async () => {
    const table = await newTable();
    const within = await preview(table.id, `Code\n${lines(50)}`);
    expect(within.status).toBe(200);
    expect(within.body).toMatchObject({ headers: ['Code'], lineCount: 50 });
    expect(within.body.sample).toHaveLength(20);
    const over = await preview(table.id, `Code\n${lines(51)}`);
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'tables.limit_reached', details: { limit: 'maxRows', value: 50 } });
  });

  it('stops reading at the first line past the ceiling: what follows is never parsed', async () => {
    const table = await newTable();
    const response = await preview(table.id, `Code\n${lines(51)}\n"never closed,${'x'.repeat(1000)}`);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('tables.limit_reached');
  });

  it('lets an insert bring at most the table’s remaining room, an upsert up to the ceiling', async () => {
    const table = await newTable([{ key: 'code', label: 'Code', isKey: true }]);
    expect((await importFile(table.id, `Code\n${lines(45)}`)).body).toMatchObject({ inserted: 45 });
    const tooMany = await importFile(table.id, `Code\n${lines(6, 'n')}`);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatchObject({ code: 'tables.limit_reached', details: { limit: 'maxRows', value: 50, room: 5 } });
    const fits = await importFile(table.id, `Code\n${lines(5, 'n')}`);
    expect(fits.body).toMatchObject({ inserted: 5 });
    // The table is full (room 0), but an upsert's lines may update rows: up to the ceiling.
    const upsert = await importFile(table.id, `Code\n${lines(45)}`, { mode: 'upsert' });
    expect(upsert.status, JSON.stringify(upsert.body)).toBe(200);
    expect(upsert.body).toMatchObject({ inserted: 0, updated: 45 });
  });

  it('refuses a line of more than 1000 fields or of more than 1 MiB with a 400 naming the reason', async () => {
    const table = await newTable();
    const wide = await preview(table.id, `Code\n${'x,'.repeat(1000)}x`);
    expect(wide.status).toBe(400);
    expect(wide.body.error.details).toMatchObject({ reason: 'csv_too_many_fields', line: 2, max: 1000 });
    const long = await preview(table.id, `Code\n${'x'.repeat(1024 * 1024 + 100)}\nz`);
    expect(long.status).toBe(400);
    expect(long.body.error.details.reason).toBe('csv_line_too_long');
  });

  it('keeps reporting unreadable and empty files as before', async () => {
    const table = await newTable();
    expect((await preview(table.id, 'a,b\n"unclosed,1')).body.error.details.reason).toBe('csv_unreadable');
    expect((await preview(table.id, '\n\n')).body.error.details.reason).toBe('csv_empty');
  });

  it('answers 409 tables.import_in_progress to a second import of a table while the first runs (this process)', async () => {
    const table = await newTable();
    const csv = `Code\n${lines(40)}`;
    // The first import is held at the table's row lock (another connection holds it), so the second
    // surely arrives while the first runs, whatever the machine's speed.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM data_tables WHERE id = $1::uuid FOR UPDATE', [table.id]);
      const first = importFile(table.id, csv);
      // Waiting on the holder: the first import is inside its write transaction, its slot taken.
      const waiting = async () => (await holder.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))')).rows[0].n;
      await expect.poll(waiting, { timeout: 20_000 }).toBeGreaterThan(0);
      const second = await importFile(table.id, csv);
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('tables.import_in_progress');
      await holder.query('ROLLBACK');
      expect((await first).status).toBe(200);
    } finally {
      await holder.end();
    }
    // Once done, the table takes the next import.
    expect((await importFile(table.id, `Code\n${lines(1)}`)).status).toBe(200);
  });

  it('answers 409 tables.import_in_progress while another process holds the table’s import claim', async () => {
    const table = await newTable();
    const other = new pg.Client({ connectionString: databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('tables:import'), hashtext($1))`, [table.id]);
      const refused = await importFile(table.id, `Code\n${lines(3)}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('tables.import_in_progress');
      await other.query('ROLLBACK');
      expect((await importFile(table.id, `Code\n${lines(3)}`)).status).toBe(200);
    } finally {
      await other.end();
    }
  });

  it('bounds the keys of a cells object and of a mapping (1000)', async () => {
    const table = await newTable();
    const manyCells = Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`c${index}`, 'x']));
    const cells = await call('POST', `/api/v1/tables/${table.id}/rows`, { cookie: member.cookie, body: { cells: manyCells } });
    expect(cells.status).toBe(400);
    expect(cells.body.error.code).toBe('request.bad_request');
    const manyHeaders = Object.fromEntries(Array.from({ length: 1001 }, (_, index) => [`h${index}`, null]));
    const mapping = await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv: 'Code\nx', mapping: manyHeaders } });
    expect(mapping.status).toBe(400);
    expect(mapping.body.error.code).toBe('request.bad_request');
  });
});
