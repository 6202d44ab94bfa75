/**
 * The embedded cluster's directory, made reachable by the user PostgreSQL runs as.
 *
 * As root, PostgreSQL runs as the system user `postgres` (see `./postgres-system-user`), which must
 * be able to enter every directory on the way to its cluster. A directory the operator made
 * private (say `DATA_DIR` of mode 0700, owned by root) blocks it, and initdb then fails deep inside
 * with "Permission denied". We never widen a directory that already exists: it was made private
 * on purpose, and moving the cluster elsewhere would take the data out of where the operator put it
 * (an encrypted volume, a backed-up disk). So we stop before creating anything, naming the
 * directory and what to change. The directories we create ourselves get the search bit for that
 * user even under a strict umask (search only: their contents cannot be listed).
 *
 * Whether that user can enter a directory is asked of the system, by running `test -x` as that
 * user exactly as the server will run (same uid and gid, no supplementary groups), so ACLs and
 * group memberships count as they will for PostgreSQL.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunAs } from './postgres-system-user';

/** Search for group and others: enough to pass through, not to list. */
const searchBits = 0o011;

/**
 * Creates `directory` (and missing parents) so that `runAs` can reach it; throws before creating
 * anything when an existing directory on the way keeps `runAs` out. `runAs` null: we are not root
 * and the server runs as ourselves, so there is nothing to check.
 */
export async function prepareClusterDirectory(directory: string, runAs: RunAs | null, userName = 'postgres'): Promise<void> {
  const target = path.resolve(directory);
  if (!runAs) {
    await mkdir(target, { recursive: true });
    return;
  }
  const existing = nearestExisting(target);
  if (!(await canEnter(existing, runAs))) {
    throw new Error(await blockedMessage(target, await firstBlocking(existing, runAs), userName));
  }
  const firstCreated = await mkdir(target, { recursive: true });
  if (firstCreated) await openCreated(path.resolve(firstCreated), target);
}

function nearestExisting(target: string): string {
  let current = target;
  while (!existsSync(current)) current = path.dirname(current);
  return current;
}

/** Adds the search bits to each directory from `first` (the topmost we created) down to `target`. */
async function openCreated(first: string, target: string): Promise<void> {
  const created: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    created.push(current);
    if (current === first || current === path.dirname(current)) break;
  }
  for (const directory of created.reverse()) {
    const { mode } = await stat(directory);
    await chmod(directory, (mode & 0o7777) | searchBits);
  }
}

function canEnter(directory: string, runAs: RunAs): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('test', ['-x', directory], { uid: runAs.uid, gid: runAs.gid }, (error) => resolve(!error));
  });
}

/** The topmost directory on the way to `existing` (itself included) that `runAs` cannot enter. */
async function firstBlocking(existing: string, runAs: RunAs): Promise<string> {
  const chain: string[] = [];
  for (let current = existing; ; current = path.dirname(current)) {
    chain.unshift(current);
    if (current === path.dirname(current)) break;
  }
  for (const directory of chain) {
    if (!(await canEnter(directory, runAs))) return directory;
  }
  return existing; // entered one by one but not as a path: report the directory we need
}

async function blockedMessage(target: string, blocking: string, userName: string): Promise<string> {
  const info = await stat(blocking).catch(() => null);
  const described = info ? ` (mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')}, owner ${info.uid === 0 ? 'root' : `uid ${info.uid}`})` : '';
  return [
    `the embedded PostgreSQL cannot use ${target}: running as root, it runs as the system user "${userName}",`,
    `which cannot enter ${blocking}${described}.`,
    `Let that user pass through it (\`setfacl -m u:${userName}:x ${blocking}\`, or \`chmod o+x ${blocking}\`:`,
    'enter only, not list), or set DATA_DIR to a directory it can enter, or run mailflow as a user other than',
    'root, or set DATABASE_URL to use your own PostgreSQL.',
  ].join(' ');
}
