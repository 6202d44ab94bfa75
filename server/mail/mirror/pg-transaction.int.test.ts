import { afterAll, expect, it } from 'vitest';
import { db } from '../../core/db';
import { useTestDatabase } from '../../testing/test-database';
import { inPgTransaction, serverCompressesWithLz4 } from './pg-transaction';

await useTestDatabase();

afterAll(async () => {
  await db().$disconnect();
});

function conflict(code: string): Error {
  return Object.assign(new Error('conflict'), { code, severity: 'ERROR' });
}

it('runs a batch again from the start when the database aborts it for a deadlock, keeping nothing of the aborted try', async () => {
  await db().$executeRawUnsafe('CREATE TABLE retry_probe (n int)');
  let tries = 0;
  const result = await inPgTransaction(
    async (sql) => {
      tries += 1;
      await sql.$executeRawUnsafe('INSERT INTO retry_probe VALUES ($1)', tries);
      if (tries === 1) throw conflict('40P01');
      return 'written';
    },
    { timeoutMs: 5_000 },
  );
  expect(result).toBe('written');
  expect(tries).toBe(2);
  expect(await db().$queryRawUnsafe('SELECT n FROM retry_probe')).toEqual([{ n: 2 }]);
});

it('gives up after three tries, and never retries another failure', async () => {
  let tries = 0;
  await expect(inPgTransaction(async () => ((tries += 1), Promise.reject(conflict('40001'))), { timeoutMs: 5_000 })).rejects.toThrow('conflict');
  expect(tries).toBe(3);
  tries = 0;
  await expect(inPgTransaction(async () => ((tries += 1), Promise.reject(conflict('23505'))), { timeoutMs: 5_000 })).rejects.toThrow('conflict');
  expect(tries).toBe(1);
});

it('compresses what it writes with lz4 where the server has it (pglz where not), for its own transaction only', async () => {
  const [{ lz4 }] = await db().$queryRawUnsafe<{ lz4: boolean }[]>(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`);
  expect(await serverCompressesWithLz4()).toBe(lz4);
  await db().$executeRawUnsafe('CREATE TABLE compression_probe (written_by text, body text)');
  // Long enough to be compressed (past the 2 KB toast threshold), and compressible.
  const body = 'The quarterly figures are attached; the board meets on Thursday. '.repeat(400);
  await inPgTransaction((sql) => sql.$executeRawUnsafe(`INSERT INTO compression_probe VALUES ('writer', $1)`, body), { timeoutMs: 5_000 });
  await db().$executeRawUnsafe(`INSERT INTO compression_probe VALUES ('other', $1)`, body);
  const rows = await db().$queryRawUnsafe<{ written_by: string; method: string }[]>(
    'SELECT written_by, pg_column_compression(body) AS method FROM compression_probe ORDER BY written_by',
  );
  const [{ fallback }] = await db().$queryRawUnsafe<{ fallback: string }[]>(`SELECT current_setting('default_toast_compression') AS fallback`);
  expect(rows).toEqual([
    { written_by: 'other', method: fallback },
    { written_by: 'writer', method: lz4 ? 'lz4' : 'pglz' },
  ]);
});
