/**
 * A service process keeps the connections it opened (index.ts `keepConnectionsOpen`): pg's pool closes a
 * connection idle for 10 s, and a burst after a quiet spell then paid a new connection (SCRAM, a server process,
 * its catalog caches, the PREPAREs) for every one at once. Other processes let idle connections go, as before.
 * The pool's idle timer is a `setTimeout`, so fake timers stand in for the quiet spell.
 */
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { keepConnectionsOpen, separatePool } from './index';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

const pools: pg.Pool[] = [];
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

/** Opens `count` connections at once (each runs a statement), gives them back, then lets 11 quiet seconds pass. */
async function burstThenQuiet(pool: pg.Pool, count: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  await Promise.all(clients.map((client) => client.query('SELECT 1')));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  for (const client of clients) client.release();
  vi.advanceTimersByTime(11_000);
  vi.useRealTimers();
}

describe('a quiet spell', () => {
  it('closes the idle connections of a process that does not keep them, and none of a service process', async () => {
    const lazy = separatePool(3, 'test pool connection lost');
    pools.push(lazy);
    await burstThenQuiet(lazy, 3);
    expect(lazy.totalCount).toBe(0);

    keepConnectionsOpen();
    const kept = separatePool(3, 'test pool connection lost');
    pools.push(kept);
    await burstThenQuiet(kept, 3);
    expect([kept.totalCount, kept.idleCount]).toEqual([3, 3]);
    // Still connections that work.
    const answers = await Promise.all([1, 2, 3].map((value) => kept.query<{ n: number }>('SELECT $1::int AS n', [value])));
    expect(answers.map((answer) => answer.rows[0]!.n)).toEqual([1, 2, 3]);
    expect(kept.totalCount).toBe(3);
  });
});
