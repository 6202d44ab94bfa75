/**
 * `prisma migrate deploy` without the native engine: applies the pending directories of
 * `prisma/migrations` in order and records each in `_prisma_migrations` exactly as the CLI does, so
 * the native CLI keeps working against the same database elsewhere. The engine takes an advisory
 * lock, so two processes migrating at once apply each migration once.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { lockfileName, migrationFileName, readMigrations } from './migration-files';
import { engineErrorMessage, noSchemaFilter, withSchemaEngine } from './schema-engine';

export interface ApplyMigrationsResult {
  /** Migrations applied by this call, in order; empty when the database was up to date. */
  applied: string[];
}

export async function applyMigrations(
  databaseUrl: string,
  options: { migrationsDir?: string } = {},
): Promise<ApplyMigrationsResult> {
  const onDisk = await readMigrations(options.migrationsDir);
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: 2 });
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
    return { applied: output.appliedMigrationNames };
  } catch (error) {
    throw new Error(`applying migrations failed: ${engineErrorMessage(error)}`, { cause: error });
  }
}
