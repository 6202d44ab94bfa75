import { afterAll, expect, it } from 'vitest';
import { db } from '../../core/db';
import { useTestDatabase } from '../../testing/test-database';
import { inPgTransaction } from './pg-transaction';

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
