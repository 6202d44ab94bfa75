/**
 * Vitest global setup: a PostgreSQL server for the integration tests and a migrated template.
 *
 * With TEST_DATABASE_URL (or DATABASE_URL) set, that server is used: its URL serves as the
 * maintenance connection, and the role needs CREATEDB. Otherwise an embedded PostgreSQL is started in
 * a fresh temporary directory on a free port, fsync off, and removed at teardown.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../core/embedded-postgres';
import { applyMigrations } from '../core/migrations/apply-migrations';
import { databaseUrlFor, templateDatabase, testEnvNames, testInstanceEnv } from './test-env';

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  const quoted = client.escapeIdentifier(name);
  await client.query(`ALTER DATABASE ${quoted} IS_TEMPLATE false`).catch(() => {});
  await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
}

/** Rebuilt every run, so it always matches the migrations of the working tree. */
async function buildTemplate(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await dropDatabase(client, templateDatabase);
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(templateDatabase)}`);
  });
  await applyMigrations(databaseUrlFor(adminUrl, templateDatabase));
  // No connections: CREATE DATABASE ... TEMPLATE fails while anyone is connected to the template.
  await withClient(adminUrl, (client) =>
    client.query(`ALTER DATABASE ${client.escapeIdentifier(templateDatabase)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`),
  );
}

async function dropRunDatabases(adminUrl: string, runId: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
      [`t_${runId}_`],
    );
    for (const { datname } of rows) await dropDatabase(client, datname);
  });
}

type Teardown = () => Promise<void>;
const noTeardown: Teardown = async () => {};
const started = Symbol.for('mailflow.test-global-setup');

/**
 * Both test projects that reach the database name this set-up (each may be the only one a filtered run
 * selects); the first call starts the server, a later one in the same run shares it.
 */
export default async function setup(): Promise<Teardown> {
  const registry = globalThis as typeof globalThis & { [started]?: Promise<Teardown> };
  if (registry[started]) {
    await registry[started];
    return noTeardown;
  }
  registry[started] = startTestDatabaseServer();
  return registry[started];
}

async function startTestDatabaseServer(): Promise<Teardown> {
  Object.assign(process.env, testInstanceEnv);
  const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let cluster: EmbeddedPostgres | null = null;
  let directory: string | null = null;
  let adminUrl: string;
  if (external) {
    adminUrl = external;
  } else {
    directory = await mkdtemp(path.join(tmpdir(), 'mailflow-test-pg-'));
    // As root the server runs as `postgres`, which must be able to enter the directory.
    await chmod(directory, 0o755);
    cluster = await startEmbeddedPostgres({ directory, port: 0, database: 'postgres', durable: false });
    adminUrl = cluster.adminUrl;
  }
  const runId = randomBytes(3).toString('hex');
  try {
    await buildTemplate(adminUrl);
  } catch (error) {
    await cluster?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
    throw error;
  }
  process.env[testEnvNames.adminUrl] = adminUrl;
  process.env[testEnvNames.runId] = runId;
  // Secrets can be stored (a test of the keyless refusal removes it).
  process.env.ENCRYPTION_KEY ??= `test-instance-key-${randomBytes(16).toString('hex')}`;

  return async () => {
    if (cluster) {
      await cluster.stop();
      await rm(directory!, { recursive: true, force: true });
    } else {
      await dropRunDatabases(adminUrl, runId);
    }
  };
}
