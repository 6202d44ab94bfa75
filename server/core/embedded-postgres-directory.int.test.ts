import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres';
import { isRoot } from './postgres-system-user';

const made: string[] = [];
afterAll(() => Promise.all(made.map((directory) => rm(directory, { recursive: true, force: true }))));

/** mkdtemp makes a directory of mode 0700 owned by us: a private DATA_DIR. */
async function privateDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'mailflow-private-'));
  made.push(directory);
  return directory;
}

async function modeOf(directory: string): Promise<number> {
  return (await stat(directory)).mode & 0o7777;
}

async function selectOne(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 AS one')).rows[0];
  } finally {
    await client.end();
  }
}

// Only root hands the cluster to the `postgres` system user; as anyone else the server runs as us.
describe.skipIf(!isRoot())('hardening 13: as root, a private DATA_DIR is never widened and never fails inside initdb', () => {
  it('stops before creating anything, naming the directory that keeps the postgres user out and what to change', async () => {
    const dataDir = await privateDirectory();
    expect(await modeOf(dataDir)).toBe(0o700);

    const failure = await startEmbeddedPostgres({ directory: path.join(dataDir, 'postgres'), port: 0, durable: false }).then(
      async (server) => {
        await server.stop();
        return null;
      },
      (error: Error) => error.message,
    );

    expect(failure).toContain(`the embedded PostgreSQL cannot use ${path.join(dataDir, 'postgres')}`);
    expect(failure).toContain(`cannot enter ${dataDir} (mode 0700, owner root)`);
    expect(failure).toContain(`setfacl -m u:postgres:x ${dataDir}`);
    expect(failure).toContain('set DATA_DIR');
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await readdir(dataDir)).toEqual([]);

    // The change it names is enough: the same directory, entered but still not listable by others.
    await chmod(dataDir, 0o701);
    const server = await startEmbeddedPostgres({ directory: path.join(dataDir, 'postgres'), port: 0, durable: false });
    try {
      expect(await selectOne(server.url)).toEqual({ one: 1 });
    } finally {
      await server.stop();
    }
    expect(await modeOf(dataDir)).toBe(0o701);
  });

  it('lets the postgres user through the directories it creates itself, even under a strict umask', async () => {
    const parent = await privateDirectory();
    await chmod(parent, 0o711);
    const previous = process.umask(0o077);
    let server;
    try {
      server = await startEmbeddedPostgres({ directory: path.join(parent, 'data', 'postgres'), port: 0, durable: false });
    } finally {
      process.umask(previous);
    }
    try {
      expect(await selectOne(server.url)).toEqual({ one: 1 });
    } finally {
      await server.stop();
    }
    expect(await modeOf(path.join(parent, 'data'))).toBe(0o711);
    expect(await modeOf(path.join(parent, 'data', 'postgres'))).toBe(0o711);
    expect(await modeOf(parent)).toBe(0o711);
  });
});
