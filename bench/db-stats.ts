/**
 * Database writes caused by a phase: row counts from `pg_stat_user_tables` (split into logged
 * tables and UNLOGGED ones such as `rate_limit_buckets`), WAL bytes from `pg_current_wal_lsn()`,
 * and (PostgreSQL 18+) WAL fsyncs made by client backends from `pg_stat_io`: a commit that waits
 * for a durable flush is one, an asynchronous commit (a transaction that wrote only UNLOGGED
 * tables writes a commit record but does not wait for it) is none.
 *
 * PostgreSQL backends publish their table counters at most once a second; a backend that goes idle
 * less than a second after its last flush keeps its counts pending for up to 10 s (and
 * `pg_stat_force_next_flush()` only acts on the calling backend). `settle` makes the servers' own
 * pool connections publish: after a 1.1 s pause it sends a burst of requests with an unknown key
 * (the key lookup runs and writes nothing) at a concurrency above the pool size, so every pooled
 * backend ends a transaction more than a second after its last flush and publishes everything.
 * Each 200 answer writes `rate_limit_buckets` exactly once, so we know the count to wait for; a
 * backend the burst missed publishes on its own within 10 s of going idle.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { buildGetRequest } from './http-client';
import { closedLoopFixed } from './load';

export interface TableCounts {
  table: string;
  unlogged: boolean;
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
}

export interface DbSnapshot {
  tables: Map<string, TableCounts>;
  walLsn: string;
  /** WAL fsyncs made by client backends, i.e. commits that waited for a durable flush (PostgreSQL 18+). */
  clientWalFsyncs: number | null;
}

export interface DbDelta {
  tables: TableCounts[];
  walBytes: number;
  clientWalFsyncs: number | null;
}

export class DbObserver {
  private hasWalIo: boolean | undefined;

  private constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<DbObserver> {
    const client = new pg.Client({ connectionString: url, application_name: 'bench-observer' });
    await client.connect();
    return new DbObserver(client);
  }

  async snapshot(): Promise<DbSnapshot> {
    await this.client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await this.client.query<{
      relname: string;
      relpersistence: string;
      n_tup_ins: string;
      n_tup_upd: string;
      n_tup_hot_upd: string;
      n_tup_del: string;
    }>(
      `SELECT s.relname, c.relpersistence, s.n_tup_ins, s.n_tup_upd, s.n_tup_hot_upd, s.n_tup_del
         FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.schemaname = 'public'`,
    );
    const { rows: wal } = await this.client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    let clientWalFsyncs: number | null = null;
    if (this.hasWalIo !== false) {
      try {
        const { rows: io } = await this.client.query<{ fsyncs: string | null }>(
          `SELECT sum(fsyncs)::text AS fsyncs FROM pg_stat_io WHERE object = 'wal' AND backend_type = 'client backend'`,
        );
        clientWalFsyncs = io[0].fsyncs === null ? null : Number(io[0].fsyncs);
        this.hasWalIo = clientWalFsyncs !== null;
      } catch {
        this.hasWalIo = false; // before PostgreSQL 18 pg_stat_io has no WAL rows
      }
    }
    const tables = new Map<string, TableCounts>();
    for (const row of rows) {
      tables.set(row.relname, {
        table: row.relname,
        unlogged: row.relpersistence === 'u',
        inserted: Number(row.n_tup_ins),
        updated: Number(row.n_tup_upd),
        hotUpdated: Number(row.n_tup_hot_upd),
        deleted: Number(row.n_tup_del),
      });
    }
    return { tables, walLsn: wal[0].lsn, clientWalFsyncs };
  }

  async delta(before: DbSnapshot, after: DbSnapshot): Promise<DbDelta> {
    const tables: TableCounts[] = [];
    for (const [name, now] of after.tables) {
      const then = before.tables.get(name);
      const change: TableCounts = {
        table: name,
        unlogged: now.unlogged,
        inserted: now.inserted - (then?.inserted ?? 0),
        updated: now.updated - (then?.updated ?? 0),
        hotUpdated: now.hotUpdated - (then?.hotUpdated ?? 0),
        deleted: now.deleted - (then?.deleted ?? 0),
      };
      if (change.inserted || change.updated || change.deleted) tables.push(change);
    }
    const { rows } = await this.client.query<{ bytes: string }>('SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text AS bytes', [
      after.walLsn,
      before.walLsn,
    ]);
    const clientWalFsyncs =
      after.clientWalFsyncs !== null && before.clientWalFsyncs !== null ? after.clientWalFsyncs - before.clientWalFsyncs : null;
    return { tables: tables.sort((a, b) => a.table.localeCompare(b.table)), walBytes: Number(rows[0].bytes), clientWalFsyncs };
  }

  /**
   * Snapshot once `rate_limit_buckets` shows `expected` more row writes than `baseline` (one per
   * 200 answer), or after `timeoutMs` (a backend idle since less than a second after its last
   * flush publishes on its own within 10 s). `complete` says whether the count was reached.
   */
  async snapshotWhenComplete(baseline: DbSnapshot, expected: number, timeoutMs = 12_000): Promise<{ snapshot: DbSnapshot; complete: boolean }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const snapshot = await this.snapshot();
      const before = baseline.tables.get('rate_limit_buckets');
      const after = snapshot.tables.get('rate_limit_buckets');
      const writes = (after?.inserted ?? 0) + (after?.updated ?? 0) - (before?.inserted ?? 0) - (before?.updated ?? 0);
      if (writes >= expected) return { snapshot, complete: writes === expected };
      if (Date.now() > deadline) return { snapshot, complete: false };
      await sleep(250);
    }
  }

  /** PID of the server's postmaster when it runs on this machine and we may read its data directory. */
  async postmasterPid(): Promise<number | null> {
    try {
      const { rows } = await this.client.query<{ text: string }>(`SELECT pg_read_file('postmaster.pid') AS text`);
      const pid = Number.parseInt(rows[0].text.split('\n')[0], 10);
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      return comm.startsWith('postgres') ? pid : null;
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Makes a server's pooled backends publish their pending counters (see the file comment). */
export async function settle(port: number, poolSize: number): Promise<void> {
  await sleep(1_100);
  const bogus = buildGetRequest(`127.0.0.1:${port}`, '/api/v1/auth/me', {
    Authorization: `Bearer mk_bench_unknown_key_${'x'.repeat(32)}`,
    Accept: 'application/json',
  });
  await closedLoopFixed({ port, request: bogus, concurrency: Math.max(32, poolSize * 3), requestsPerConnection: 4 });
  await sleep(200);
}

export function addDeltas(a: DbDelta, b: DbDelta): DbDelta {
  const tables = new Map<string, TableCounts>();
  for (const table of [...a.tables, ...b.tables]) {
    const sum = tables.get(table.table);
    if (!sum) tables.set(table.table, { ...table });
    else {
      sum.inserted += table.inserted;
      sum.updated += table.updated;
      sum.hotUpdated += table.hotUpdated;
      sum.deleted += table.deleted;
    }
  }
  return {
    tables: [...tables.values()].sort((x, y) => x.table.localeCompare(y.table)),
    walBytes: a.walBytes + b.walBytes,
    clientWalFsyncs: a.clientWalFsyncs !== null && b.clientWalFsyncs !== null ? a.clientWalFsyncs + b.clientWalFsyncs : null,
  };
}

export function sumWrites(tables: TableCounts[], unlogged: boolean): { inserted: number; updated: number; deleted: number } {
  const total = { inserted: 0, updated: 0, deleted: 0 };
  for (const table of tables) {
    if (table.unlogged !== unlogged) continue;
    total.inserted += table.inserted;
    total.updated += table.updated;
    total.deleted += table.deleted;
  }
  return total;
}
