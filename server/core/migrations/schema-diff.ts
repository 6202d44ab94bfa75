/**
 * SQL that turns one Prisma schema into another, computed by the schema engine from the two files
 * alone (no database, no shadow database). `prisma/schema.migrated.prisma` is the schema as of the
 * last migration; diffing it against `prisma/schema.prisma` gives the next migration.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { offlineAdapterFactory } from './offline-adapter';
import { noSchemaFilter, withSchemaEngine } from './schema-engine';

export function schemaPaths(root = process.cwd()) {
  return {
    current: path.join(root, 'prisma', 'schema.prisma'),
    migrated: path.join(root, 'prisma', 'schema.migrated.prisma'),
  };
}

/**
 * The migration script from `from` (null: an empty database) to `to`; an empty string when the two
 * schemas describe the same database.
 */
export async function diffSchemas(from: string | null, to: string): Promise<string> {
  const target = (content: string) => ({ tag: 'schemaDatamodel' as const, files: [{ path: 'schema.prisma', content }] });
  const result = await withSchemaEngine(offlineAdapterFactory(), (engine) =>
    engine.diff({
      from: from === null ? { tag: 'empty' } : target(from),
      to: target(to),
      script: true,
      exitCode: null,
      filters: noSchemaFilter,
    }),
  );
  return isEmptyScript(result.stdout ?? '') ? '' : (result.stdout ?? '');
}

/** The engine answers an empty diff with a comment-only script. */
function isEmptyScript(script: string): boolean {
  return script
    .split('\n')
    .map((line) => line.trim())
    .every((line) => line === '' || line.startsWith('--'));
}

/** Reads both schema files; a missing migrated copy means nothing has been migrated yet. */
export async function pendingSchemaChange(root = process.cwd()): Promise<string> {
  const paths = schemaPaths(root);
  const migrated = await readFile(paths.migrated, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  return diffSchemas(migrated, await readFile(paths.current, 'utf8'));
}
