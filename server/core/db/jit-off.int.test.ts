/**
 * The process's pools start every connection with JIT compilation off (index.ts `poolOptions`): on a server built
 * with LLVM, a batch's thread look-up, estimated far above what it reads, was compiled for 300 ms to run in 10.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { db, pool, separatePool } from './index';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

const other = separatePool(1, 'test pool connection lost', { commitsWaitForWal: false });
afterAll(() => other.end());

describe('JIT compilation', () => {
  it('is off on the shared pool, through Prisma, and on a separate pool with its own startup setting beside it', async () => {
    expect((await pool().query<{ jit: string }>('SHOW jit')).rows[0]!.jit).toBe('off');
    expect((await db().$queryRawUnsafe<{ jit: string }[]>('SHOW jit'))[0]!.jit).toBe('off');
    const [jit, commit] = await Promise.all([other.query<{ jit: string }>('SHOW jit'), other.query<{ synchronous_commit: string }>('SHOW synchronous_commit')]);
    expect(jit.rows[0]!.jit).toBe('off');
    expect(commit.rows[0]!.synchronous_commit).toBe('off');
  });
});
