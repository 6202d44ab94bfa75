import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { findFreePort } from './free-port';

const directory = await mkdtemp(path.join(tmpdir(), 'mailflow-embedded-'));
await chmod(directory, 0o755);
afterAll(() => rm(directory, { recursive: true, force: true }));

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function occupy(port: number): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The same URL over TCP on 127.0.0.1 (without the socket's `host` parameter). */
const overTcp = (url: string) => url.replace(/\?.*$/, '');

describe('startEmbeddedPostgres', () => {
  it('starts on another port when the preferred one is taken, creates the database, keeps data between starts', async () => {
    const preferred = await findFreePort();
    const blocker = await occupy(preferred);
    let first: EmbeddedPostgres;
    try {
      first = await startEmbeddedPostgres({ directory, port: preferred, database: 'app', durable: false });
    } finally {
      blocker.close();
    }
    expect(first.port).not.toBe(preferred);
    // The service connects through the Unix socket in the data directory; TCP on 127.0.0.1 stays open for tools.
    const socketDir = path.join(directory, 'data');
    expect(first.url).toMatch(new RegExp(`^postgresql://postgres:[^@]+@127\\.0\\.0\\.1:${first.port}/app\\?host=${encodeURIComponent(socketDir)}$`));
    expect(await query(first.url, 'SELECT inet_server_addr() IS NULL AS unix')).toEqual([{ unix: true }]);
    expect(await query(overTcp(first.url), 'SELECT inet_server_addr() IS NULL AS unix')).toEqual([{ unix: false }]);
    await query(first.url, 'CREATE TABLE kept (value text); INSERT INTO kept VALUES ($$still here$$)');
    const pid = Number((await readFile(path.join(directory, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);

    await expect(startEmbeddedPostgres({ directory, port: 0, database: 'app' })).rejects.toThrow(/already running/);

    await first.stop();
    expect(isAlive(pid)).toBe(false);

    const second = await startEmbeddedPostgres({ directory, port: 0, database: 'app', durable: false });
    try {
      expect(await query(second.url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
      expect(await query(second.url, 'SHOW server_encoding')).toEqual([{ server_encoding: 'UTF8' }]);
      // Only the superuser password works: the server is not open to anyone on this machine.
      const wrong = second.url.replace(/postgres:[^@]+@/, 'postgres:wrong@');
      await expect(query(wrong, 'SELECT 1')).rejects.toThrow(/password authentication failed/);
      await expect(query(overTcp(wrong), 'SELECT 1')).rejects.toThrow(/password authentication failed/);
    } finally {
      await second.stop();
    }
  });
});
