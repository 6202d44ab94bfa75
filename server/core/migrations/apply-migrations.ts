/**
 * `prisma migrate deploy` without the native engine: applies the pending directories of
 * `prisma/migrations` in order and records each in `_prisma_migrations` exactly as the CLI does, so
 * the native CLI keeps working against the same database elsewhere. The engine takes an advisory
 * lock, so two processes migrating at once apply each migration once. Each migration's script runs
 * whole, in one implicit transaction (see `./whole-script-adapter`).
 */
import { Logger, runMigrations as applyJobQueueSchema } from 'graphile-worker';
import { lockfileName, migrationFileName, readMigrations } from './migration-files';
import { engineErrorMessage, noSchemaFilter, withSchemaEngine } from './schema-engine';
import { wholeScriptAdapterFactory } from './whole-script-adapter';

export interface ApplyMigrationsResult {
  /** Migrations applied by this call, in order; empty when the database was up to date. */
  applied: string[];
}

export async function applyMigrations(
  databaseUrl: string,
  options: { migrationsDir?: string } = {},
): Promise<ApplyMigrationsResult> {
  const onDisk = await readMigrations(options.migrationsDir);
  const adapter = wholeScriptAdapterFactory({ connectionString: databaseUrl, max: 2 });
  try {
    const output = await withSchemaEngine(adapter, (engine) =>
      engine.applyMigrations({
        migrationsList: {
          baseDir: onDisk.baseDir,
          lockfile: { path: lockfileName, content: onDisk.lockfile },
          shadowDbInitScript: '',
          migrationDirectories: onDisk.migrations.map((migration) => ({
            path: migration.name,
            migrationFile: { path: migrationFileName, content: { tag: 'ok', value: migration.sql } },
          })),
        },
        filters: noSchemaFilter,
      }),
    );
    // The job queue's own schema (graphile_worker) too: the web process adds jobs in its
    // transactions (server/core/jobs/enqueue.ts) and must not wait for a runner to create it.
    await applyJobQueueSchema({ connectionString: databaseUrl, logger: quietJobQueueLogger });
    return { applied: output.appliedMigrationNames };
  } catch (error) {
    throw new Error(`applying migrations failed: ${describeFailure(engineErrorMessage(error))}`, { cause: error });
  }
}

const quietJobQueueLogger = new Logger(() => () => {});

/**
 * The engine reports a failed script as "external connector error", the database's message, then
 * its internal span trace naming the migration. We keep the message, name the migration and say
 * how to retry it: fix the file, then mark the failed attempt rolled back (what the native
 * `prisma migrate resolve --rolled-back` does), since the engine refuses to go on past it.
 */
export function describeFailure(engineMessage: string): string {
  const failed = /apply_script\s+with migration_name="([^"]+)"/.exec(engineMessage)?.[1];
  if (!failed) return engineMessage;
  const cause = engineMessage
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && line !== 'external connector error');
  return [
    `migration ${failed} failed: ${cause ?? 'see _prisma_migrations.logs'}.`,
    'Its script ran as one transaction, so none of it was kept (unless it holds a COMMIT of its own).',
    `Fix prisma/migrations/${failed}/${migrationFileName}, then run`,
    `UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = '${failed}' AND finished_at IS NULL;`,
    'and start again.',
  ].join(' ');
}
