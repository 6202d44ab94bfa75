/**
 * The read-only transaction the rows query and the CSV export run in, on a pg pool connection of
 * their own (a measured hot path, see query.ts), and the `q` step they share.
 */
import type pg from 'pg';
import { prefixQuerySql } from './query';

/**
 * The rows query's transaction. work_mem: the sort and the count of 100,000 narrow tuples stay in
 * memory (4 MB spills to disk). jit off: compiling costs 50-150 ms, more than it saves on these
 * short expressions. For a scan plan, parallel workers are made cheap to the planner: it cannot
 * estimate conditions on cells (a slot's statistics mix every table's columns, JSONB has none; it
 * guesses a few rows where 95,000 match) and then keeps a large table's scan and sort on one core,
 * 20-35 % slower on this 2-core machine.
 */
export function rowsTransactionBegin(plan: 'index' | 'scan'): string {
  const parallel = plan === 'scan' ? '; SET LOCAL parallel_setup_cost = 10; SET LOCAL parallel_tuple_cost = 0.001' : '';
  return `BEGIN READ ONLY; SET LOCAL work_mem = '32MB'; SET LOCAL jit = off${parallel}`;
}

/** `q` as the tsquery the statements take (null: no full-text filter), in the caller's transaction. */
export async function searchQueryOf(client: pg.PoolClient, q: string | null): Promise<string | null> {
  if (q === null) return null;
  return (await client.query<{ query: string | null }>(prefixQuerySql, [q])).rows[0]?.query ?? null;
}
