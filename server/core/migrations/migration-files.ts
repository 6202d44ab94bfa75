/**
 * Reads `prisma/migrations` the way `prisma migrate deploy` does: one directory per migration
 * (`<timestamp>_<name>/migration.sql`), applied in name order, plus `migration_lock.toml`.
 *
 * The default location is taken from the working directory, not from this file's location: the
 * web process runs this code from Next's compiled output, where `import.meta.url` points into
 * `.next/`. Every entry point (`npm start`, scripts, vitest) runs from the repository root.
 * The `turbopackIgnore` comments keep `next build` from tracing these runtime paths (it would
 * otherwise copy the whole project into the server output).
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const lockfileName = 'migration_lock.toml';
export const migrationFileName = 'migration.sql';

export function defaultMigrationsDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), 'prisma', 'migrations');
}

/** Names of the migration directories, sorted as they are applied. Synchronous and cheap. */
export function migrationNames(migrationsDir = defaultMigrationsDir()): string[] {
  if (!existsSync(/*turbopackIgnore: true*/ migrationsDir)) return [];
  return readdirSync(/*turbopackIgnore: true*/ migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(migrationsDir, entry.name, migrationFileName)))
    .map((entry) => entry.name)
    .sort();
}

export interface MigrationDirectory {
  name: string;
  sql: string;
}

export interface MigrationsOnDisk {
  baseDir: string;
  lockfile: string | null;
  migrations: MigrationDirectory[];
}

export async function readMigrations(migrationsDir = defaultMigrationsDir()): Promise<MigrationsOnDisk> {
  const baseDir = path.resolve(/*turbopackIgnore: true*/ migrationsDir);
  const lockfile = await readFile(path.join(baseDir, lockfileName), 'utf8').catch(() => null);
  const migrations = await Promise.all(
    migrationNames(baseDir).map(async (name) => ({
      name,
      sql: await readFile(path.join(baseDir, name, migrationFileName), 'utf8'),
    })),
  );
  return { baseDir, lockfile, migrations };
}
