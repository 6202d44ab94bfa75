/**
 * npm run db:migrate: applies pending migrations to DATABASE_URL, or to the embedded PostgreSQL
 * (started for the occasion and stopped again) when DATABASE_URL is unset. `npm start` does the
 * same on its own; this is for deployments that migrate as a separate step.
 */
import { loadEnvFile } from '../server/core/load-env-file';
import { openLocalDatabase } from '../server/core/local-database';
import { applyMigrations } from '../server/core/migrations/apply-migrations';

loadEnvFile();
const database = await openLocalDatabase((message) => console.log(message));
try {
  const { applied } = await applyMigrations(database.url);
  console.log(applied.length === 0 ? 'database is up to date' : `applied: ${applied.join(', ')}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.stop();
}
