/**
 * A transaction on a plain `pg` connection of the process's pool, offered to the mirror writer in the
 * shape of Prisma's raw-query methods (so the same thread and blob functions serve both). The sync's
 * batch writes carry megabytes of message text as one JSON parameter; through Prisma's query layer
 * that parameter is copied and re-encoded several times over, straight through `pg` it is sent once.
 */
import type pg from 'pg';
import { pool, type Tx } from '../../core/db';
import { isRetriedConflict } from '../../core/db/retry';

export type RawSql = Pick<Tx, '$queryRawUnsafe' | '$executeRawUnsafe' | '$executeRaw'>;

function rawSql(client: pg.PoolClient): RawSql {
  const sql = {
    $queryRawUnsafe: async (text: string, ...values: unknown[]) => (await client.query(text, values)).rows,
    $executeRawUnsafe: async (text: string, ...values: unknown[]) => (await client.query(text, values)).rowCount ?? 0,
    // Tagged template: the pieces joined with $1, $2, ... placeholders.
    $executeRaw: async (strings: TemplateStringsArray, ...values: unknown[]) => {
      const text = strings.reduce((joined, piece, index) => (index === 0 ? piece : `${joined}$${index}${piece}`), '');
      return (await client.query(text, values)).rowCount ?? 0;
    },
  };
  return sql as unknown as RawSql;
}

export interface PgTransactionOptions {
  timeoutMs: number;
  /**
   * false: the commit returns without waiting for its WAL flush (`synchronous_commit` off for this transaction), for
   * writes a database crash may lose whole without losing anything: a later durable commit flushes them first, and
   * what a crash takes back (a batch with the cursor that covers it) is read from the provider again.
   */
  commitsWaitForWal?: boolean;
}

/**
 * Runs `work` in one transaction; one the database aborts for a deadlock or a serialization failure
 * (two syncs of one server's mail threading the same messages, a killed process's backend still
 * finishing its statement) is run again from the start, up to three times in all: nothing of an
 * aborted try was kept.
 */
export async function inPgTransaction<T>(work: (sql: RawSql) => Promise<T>, options: PgTransactionOptions): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await inPgTransactionOnce(work, options);
    } catch (error) {
      if (attempt >= 3 || !isRetriedConflict(error)) throw error;
    }
  }
}

const lz4ByPool = new WeakMap<pg.Pool, Promise<boolean>>();

/**
 * Whether the server can compress values with lz4 (PostgreSQL 14 and later, built with it: most packaged servers;
 * not the embedded one). Asked once per pool; a failed question is asked again next time.
 */
export function serverCompressesWithLz4(of: pg.Pool = pool()): Promise<boolean> {
  let known = lz4ByPool.get(of);
  if (!known) {
    known = of
      .query<{ lz4: boolean }>(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`)
      .then((result) => result.rows[0]?.lz4 === true)
      .catch(() => {
        lz4ByPool.delete(of);
        return false;
      });
    lz4ByPool.set(of, known);
  }
  return known;
}

async function inPgTransactionOnce<T>(work: (sql: RawSql) => Promise<T>, options: PgTransactionOptions): Promise<T> {
  const lz4 = await serverCompressesWithLz4();
  const client = await pool().connect();
  let broken = false;
  try {
    // A batch that hangs (a lock, a stalled server) ends instead of holding its connection forever.
    // No parallel workers: the batch's statements are index look-ups of a few hundred rows, where
    // starting two workers took 6-17 ms against under 1 ms of work (the thread look-up, measured on
    // 2 cores) and took the cores the sync itself runs on. The bodies compressed with lz4 where the
    // server has it: pglz took about a quarter of PostgreSQL's CPU in a sync, lz4 a fraction of that
    // (bench/README); the setting is the transaction's, so a dump restored elsewhere is not tied to it.
    // All in one round trip (a simple query).
    await client.query(
      `BEGIN; SET LOCAL statement_timeout = ${Math.trunc(options.timeoutMs)}; SET LOCAL max_parallel_workers_per_gather = 0` +
        (lz4 ? `; SET LOCAL default_toast_compression = 'lz4'` : '') +
        (options.commitsWaitForWal === false ? '; SET LOCAL synchronous_commit = off' : ''),
    );
    const result = await work(rawSql(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
