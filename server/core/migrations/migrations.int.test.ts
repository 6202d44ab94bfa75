import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase } from '../../testing/test-database';
import { applyMigrations } from './apply-migrations';
import { defaultMigrationsDir, migrationNames } from './migration-files';
import { migrationStatus } from './migration-status';

const committed = migrationNames();
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A copy of prisma/migrations with one more migration, as a later release would ship. */
async function migrationsWithOneMore(): Promise<{ dir: string; extra: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mailflow-migrations-'));
  await cp(defaultMigrationsDir(), dir, { recursive: true });
  const extra = '99991231235959_add_test_marker';
  await mkdir(path.join(dir, extra));
  await writeFile(path.join(dir, extra, 'migration.sql'), 'CREATE TABLE "test_marker" ("id" INTEGER PRIMARY KEY);\n');
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return { dir, extra };
}

describe('applyMigrations', () => {
  it('applies every migration to an empty database, then does nothing the second time', async () => {
    const url = await createTestDatabase({ migrated: false });
    expect(committed.length).toBeGreaterThan(0);

    expect(await migrationStatus(url)).toMatchObject({ ok: false, pending: committed });
    expect((await applyMigrations(url)).applied).toEqual(committed);
    expect((await applyMigrations(url)).applied).toEqual([]);

    const recorded = await query<{ migration_name: string; finished: boolean; checksum: string }>(
      url,
      'SELECT migration_name, finished_at IS NOT NULL AS finished, checksum FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(recorded.map((row) => row.migration_name)).toEqual(committed);
    expect(recorded.every((row) => row.finished && /^[0-9a-f]{64}$/.test(row.checksum))).toBe(true);
    expect(await migrationStatus(url)).toEqual({ ok: true, pending: [] });
  });

  it('makes rate_limit_buckets UNLOGGED and the other tables durable', async () => {
    const url = await createTestDatabase({ migrated: false });
    await applyMigrations(url);
    const rows = await query<{ relname: string; relpersistence: string }>(
      url,
      `SELECT relname, relpersistence FROM pg_class WHERE relname IN ('rate_limit_buckets', 'members')`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.relname, row.relpersistence]))).toEqual({
      rate_limit_buckets: 'u',
      members: 'p',
    });
  });
});

describe('migrationStatus', () => {
  it('reports a migration that is on disk but not applied, until it is applied', async () => {
    const url = await createTestDatabase();
    const { dir, extra } = await migrationsWithOneMore();

    expect(await migrationStatus(url, { migrationsDir: dir })).toEqual({
      ok: false,
      pending: [extra],
      detail: `pending: ${extra}`,
    });
    expect((await applyMigrations(url, { migrationsDir: dir })).applied).toEqual([extra]);
    expect(await migrationStatus(url, { migrationsDir: dir })).toEqual({ ok: true, pending: [] });
    // The committed directory knows nothing of the extra one: a newer database is still ready.
    expect(await migrationStatus(url)).toEqual({ ok: true, pending: [] });
  });

  it('reports a failed migration and accepts a pg client or pool', async () => {
    const url = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await pool.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ('x', 'x', '99991231235959_broken', now(), 0)`,
      );
      const status = await migrationStatus(pool);
      expect(status.ok).toBe(false);
      expect(status.pending).toEqual([]);
      expect(status.detail).toContain('99991231235959_broken');
    } finally {
      await pool.end();
    }
  });
});

describe('hardening 15: a migration script runs whole, as `prisma migrate deploy` runs it', () => {
  it('applies a function body, a string literal and comments that contain semicolons, and records it', async () => {
    const url = await createTestDatabase({ migrated: false });
    const dir = path.join(fixtures, 'semicolons');
    const [name] = migrationNames(dir);

    expect((await applyMigrations(url, { migrationsDir: dir })).applied).toEqual([name]);

    const [result] = await query<{ count: number; note: string }>(
      url,
      `SELECT semicolon_count('a;b;c') AS count, note FROM semicolon_marker WHERE id = 1`,
    );
    expect(result).toEqual({ count: 2, note: 'first; second' });
    const recorded = await query<{ migration_name: string; finished: boolean; steps: number }>(
      url,
      'SELECT migration_name, finished_at IS NOT NULL AS finished, applied_steps_count AS steps FROM _prisma_migrations',
    );
    expect(recorded).toEqual([{ migration_name: name, finished: true, steps: 1 }]);
    expect(await migrationStatus(url, { migrationsDir: dir })).toEqual({ ok: true, pending: [] });
  });

  it('fails with the migration name and the database error, and leaves nothing of the failed script', async () => {
    const url = await createTestDatabase({ migrated: false });
    const dir = path.join(fixtures, 'failing');
    const [name] = migrationNames(dir);

    const failure = await applyMigrations(url, { migrationsDir: dir }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain(`migration ${name} failed: No such table: no_such_table_here.`);
    expect(failure).not.toContain('sql_schema_connector'); // the engine's span trace

    // One script, one implicit transaction: the table created before the failing statement is gone.
    const [table] = await query<{ exists: boolean }>(url, `SELECT to_regclass('half_applied_marker') IS NOT NULL AS exists`);
    expect(table).toEqual({ exists: false });
    const status = await migrationStatus(url, { migrationsDir: dir });
    expect(status.ok).toBe(false);
    expect(status.detail).toContain(`failed or in progress: ${name}`);

    // The way out the message gives: fix the file, mark the attempt rolled back, start again.
    const fixed = await mkdtemp(path.join(tmpdir(), 'mailflow-migrations-'));
    onTestFinished(() => rm(fixed, { recursive: true, force: true }));
    await cp(dir, fixed, { recursive: true });
    await writeFile(path.join(fixed, name!, 'migration.sql'), 'CREATE TABLE "half_applied_marker" ("id" INTEGER PRIMARY KEY);\n');
    const markRolledBack = /UPDATE _prisma_migrations [^;]+;/.exec(failure ?? '')?.[0];
    expect(markRolledBack).toBeDefined();
    await query(url, markRolledBack!);
    expect((await applyMigrations(url, { migrationsDir: fixed })).applied).toEqual([name]);
    expect(await migrationStatus(url, { migrationsDir: fixed })).toEqual({ ok: true, pending: [] });
  });
});
