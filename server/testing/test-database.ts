/**
 * One PostgreSQL database per integration test file, copied from `mailflow_template` (migrated once
 * by the global setup), so files run in parallel without seeing each other's rows.
 *
 *   const databaseUrl = await useTestDatabase(); // at the top of a *.int.test.ts file
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { resetConfigForTests } from '../core/config';
import { disconnectDb } from '../core/db';
import { composeEngine } from '../engine-adapters/compose';
import { databaseUrlFor, templateDatabase, testEnv } from './test-env';

export { databaseUrlFor };

export async function withAdminClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testEnv().adminUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database for this run and returns its URL, without touching process.env.
 * `migrated: false` gives an empty database (for migration tests).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const { adminUrl, runId } = testEnv();
  // The run id lets the global teardown drop every database of this run, even after a crash.
  const name = `t_${runId}_${randomBytes(5).toString('hex')}`;
  await withAdminClient((client) =>
    client.query(
      options.migrated === false
        ? `CREATE DATABASE ${client.escapeIdentifier(name)}`
        : `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(templateDatabase)}`,
    ),
  );
  return databaseUrlFor(adminUrl, name);
}

/**
 * Points this test file's `db()` at a fresh migrated database and returns its URL. Call it at the
 * top level of the file (or in `beforeAll`).
 */
export async function useTestDatabase(): Promise<string> {
  const url = await createTestDatabase();
  await disconnectDb();
  process.env.DATABASE_URL = url;
  resetConfigForTests();
  // Whatever the file runs of the engine (steps, run ends, cancels) runs composed, as in the runner.
  composeEngine();
  registerCleanup();
  return url;
}

function registerCleanup(): void {
  try {
    // Closes this file's pool; the databases themselves are dropped by the global teardown.
    afterAll(() => disconnectDb());
  } catch {
    // Called from inside a hook, where vitest takes no new hooks: the process exit closes the pool.
  }
}
