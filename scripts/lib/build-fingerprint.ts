/**
 * Whether the production Next.js build in `.next/` was made from the current sources. A fingerprint
 * of the inputs (path, size and modification time of every file) is saved next to the build and
 * compared at the next start. Cheap (no file is read) and good enough: an edit changes mtime.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Inputs of `next build`, relative to the project root. */
export const buildInputs = {
  directories: ['app', 'server', 'public'],
  files: ['next.config.mjs', 'package-lock.json', 'tsconfig.json', 'postcss.config.mjs', 'package.json'],
};

/** Tests are not part of the build; editing one must not cost a rebuild. */
function isIgnored(name: string): boolean {
  return name === 'node_modules' || name.startsWith('.') || /\.test\.tsx?$/.test(name);
}

async function listFiles(root: string, relative: string, into: string[]): Promise<void> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (isIgnored(entry.name)) continue;
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) await listFiles(root, child, into);
    else if (entry.isFile()) into.push(child);
  }
}

export async function sourceFingerprint(root: string): Promise<string> {
  const files: string[] = [];
  for (const directory of buildInputs.directories) await listFiles(root, directory, files);
  for (const file of buildInputs.files) if (existsSync(path.join(root, file))) files.push(file);
  files.sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const info = await stat(path.join(root, file));
    hash.update(`${file.split(path.sep).join('/')}\0${info.size}\0${info.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const fingerprintFile = (root: string) => path.join(root, '.next', 'mailflow-build-fingerprint');

/** Why a build is needed, or null when `.next` is current for `fingerprint`. */
export async function buildNeeded(root: string, fingerprint: string): Promise<string | null> {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) return 'no production build yet';
  const saved = await readFile(fingerprintFile(root), 'utf8').catch(() => null);
  if (saved === null) return 'the build has no recorded fingerprint';
  return saved.trim() === fingerprint ? null : 'sources changed since the last build';
}

/**
 * Saved after a successful build, with the fingerprint taken before it: a file edited during the
 * build then triggers another build next time instead of being silently missed.
 */
export async function saveFingerprint(root: string, fingerprint: string): Promise<void> {
  await writeFile(fingerprintFile(root), `${fingerprint}\n`);
}

/** Whether `.next` is current now: the fingerprint to save once a build succeeds, and why a build is needed (null: it is not). */
export async function buildStaleness(root: string): Promise<{ fingerprint: string; reason: string | null }> {
  const fingerprint = await sourceFingerprint(root);
  return { fingerprint, reason: await buildNeeded(root, fingerprint) };
}

/** `next build` as a child of this Node: Next's own command, no shell or npx between (npm start and npm test alike). */
export function nextBuildArgs(): string[] {
  return [createRequire(import.meta.url).resolve('next/dist/bin/next'), 'build'];
}
