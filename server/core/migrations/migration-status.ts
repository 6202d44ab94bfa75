/**
 * Whether every migration directory is recorded as finished in `_prisma_migrations`. Backs the
 * `migrations` check of GET /readyz, so it stays cheap: one plain query, no schema engine.
 *
 * Rows the directory does not know (a newer release already migrated this database) do not make
 * the instance unready; a failed migration (started, never finished, not rolled back) does.
 */
import pg from 'pg';
import { databaseUrl } from '../config';
import { defaultMigrationsDir, migrationNames } from './migration-files';

export interface MigrationStatus {
  ok: boolean;
  /** Migration directories not yet applied, in the order they would be applied. */
  pending: string[];
  detail?: string;
}

/** A `pg` Client, Pool or PoolClient. */
export interface PgQueryable {
  query(sql: string): Promise<{ rows: unknown[] }>;
}

/** A Prisma client (`db()`); typed structurally so this module does not load the generated client. */
export interface PrismaQueryable {
  $queryRawUnsafe<T = unknown>(sql: string): Promise<T>;
}

export type StatusSource = string | PgQueryable | PrismaQueryable;

const appliedSql = `SELECT migration_name, finished_at IS NOT NULL AS finished
                      FROM _prisma_migrations WHERE rolled_back_at IS NULL`;

interface AppliedRow {
  migration_name: string;
  finished: boolean;
}

const undefinedTable = '42P01';

let pool: { url: string; pool: pg.Pool } | null = null;

function sharedPool(): pg.Pool {
  const url = databaseUrl();
  if (pool?.url !== url) {
    void pool?.pool.end().catch(() => {});
    const created = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5000, allowExitOnIdle: true });
    created.on('error', () => {}); // an idle connection dropped by the server; the next query reconnects
    pool = { url, pool: created };
  }
  return pool.pool;
}

/**
 * Without a source, a one-connection pool on DATABASE_URL kept for the life of the process, so
 * frequent readiness probes do not open a connection each.
 */
export async function migrationStatus(
  source: StatusSource = sharedPool(),
  options: { migrationsDir?: string } = {},
): Promise<MigrationStatus> {
  const expected = migrationNames(options.migrationsDir ?? defaultMigrationsDir());
  let rows: AppliedRow[];
  try {
    rows = await queryApplied(source);
  } catch (error) {
    if ((error as { code?: string }).code === undefinedTable || /_prisma_migrations.*does not exist/.test(String(error))) {
      return { ok: expected.length === 0, pending: expected, detail: 'no migration has been applied' };
    }
    throw error;
  }
  return compare(expected, rows);
}

/** Pure comparison, exported for tests. */
export function compare(expected: string[], rows: AppliedRow[]): MigrationStatus {
  const finished = new Set(rows.filter((row) => row.finished).map((row) => row.migration_name));
  const failed = rows.filter((row) => !row.finished).map((row) => row.migration_name);
  const pending = expected.filter((name) => !finished.has(name));
  const problems: string[] = [];
  if (failed.length > 0) problems.push(`failed or in progress: ${failed.join(', ')}`);
  if (pending.length > 0) problems.push(`pending: ${pending.join(', ')}`);
  return problems.length === 0 ? { ok: true, pending } : { ok: false, pending, detail: problems.join('; ') };
}

async function queryApplied(source: StatusSource): Promise<AppliedRow[]> {
  if (typeof source === 'string') {
    const client = new pg.Client({ connectionString: source, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return (await client.query<AppliedRow>(appliedSql)).rows;
    } finally {
      await client.end();
    }
  }
  if ('$queryRawUnsafe' in source) return source.$queryRawUnsafe<AppliedRow[]>(appliedSql);
  return (await source.query(appliedSql)).rows as AppliedRow[];
}
