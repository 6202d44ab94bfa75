/**
 * Rows query at the table limits (the second section of `npm run bench`; also runs alone with
 * `npx tsx bench/tables-rows.ts`):
 *
 *   100,000 rows × 20 columns, seeded by one INSERT … SELECT generate_series (secondary indexes are
 *   dropped for the load and rebuilt after it, as a bulk load would do, then ANALYZE);
 *   ~30 queries of one shape: a filter on 3 columns + `q` + a sort, offset 90,000, limit 100;
 *
 * each measured through the in-process REST handler (`handleRestRequest`, API key: authentication,
 * rate limit, scope, zod, the service, the envelope; no socket) and, as the floor, as the same SQL
 * run straight on `pg` (the statements rows/query.ts builds, in the same transaction shape). Target:
 * route p95 < 300 ms. Prints p50/p95/max for both and their ratio; PASS/MISS is information only.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { clusterCpuMs, processCpuMs } from './cpu';
import { percentile } from './stats';
import { runSectionAlone } from './database';

const rowCount = 100_000;
const pageOffset = 90_000;
const pageLimit = 100;
const targetP95Ms = 300;

/** The 20 columns: every type, several of each. */
export const columns = [
  { key: 'name', label: 'Name', type: 'text', required: true },
  { key: 'email', label: 'Email', type: 'email', isKey: true },
  { key: 'status', label: 'Status', type: 'select', options: ['new', 'active', 'paused', 'churned'] },
  { key: 'score', label: 'Score', type: 'number' },
  { key: 'amount', label: 'Amount', type: 'number' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'signup', label: 'Signup', type: 'date' },
  { key: 'last_seen', label: 'Last seen', type: 'datetime' },
  { key: 'city', label: 'City', type: 'text' },
  { key: 'country', label: 'Country', type: 'select', options: ['FR', 'BE', 'CH', 'CA', 'DE', 'ES'] },
  { key: 'note', label: 'Note', type: 'text' },
  { key: 'phone', label: 'Phone', type: 'text' },
  { key: 'company', label: 'Company', type: 'text' },
  { key: 'employees', label: 'Employees', type: 'number' },
  { key: 'plan', label: 'Plan', type: 'select', options: ['free', 'pro', 'team', 'enterprise'] },
  { key: 'newsletter', label: 'Newsletter', type: 'boolean' },
  { key: 'renewal', label: 'Renewal', type: 'date' },
  { key: 'tags', label: 'Tags', type: 'text' },
  { key: 'manager', label: 'Manager', type: 'email' },
  { key: 'comment', label: 'Comment', type: 'text' },
] as const;

/**
 * One row per i, as the service would store it: cells with the stored forms of rows/cells.ts, key_value
 * and unique_key from the email, search_text = the values in column order (searchTextOf).
 * Distributions are chosen so the benchmark's filters keep > 90 % of the rows (offset 90,000 must
 * stay inside the result): churned 3 %, score 0-1000 uniform, notes mention "customer" 98 %.
 */
export const seedSql = (tableId: string, memberId: string) => `
  INSERT INTO table_rows (id, table_id, cells, key_value, unique_key, search_text, created_at, updated_at, created_by_member, updated_by_member)
  SELECT gen_random_uuid(), '${tableId}'::uuid, c, c->>'email', c->>'email',
         concat_ws(' ', ${columns.map((column) => `c->>'${column.key}'`).join(', ')}),
         t, t, '${memberId}'::uuid, '${memberId}'::uuid
    FROM (
      SELECT i, timestamptz '2025-01-01Z' + make_interval(secs => i) AS t, jsonb_strip_nulls(jsonb_build_object(
        'name', (ARRAY['Alice','Bruno','Chloé','David','Émile','Fatima','Gaston','Hana','Igor','Jeanne'])[1 + i % 10] || ' ' ||
                (ARRAY['Martin','Bernard','Dubois','Thomas','Robert','Petit','Durand','Leroy','Moreau'])[1 + (i / 10) % 9],
        'email', 'user' || i || '@' || (ARRAY['acme','globex','initech','umbrella','hooli'])[1 + i % 5] || '.test',
        'status', CASE WHEN i % 100 < 3 THEN 'churned' ELSE (ARRAY['new','active','active','paused'])[1 + i % 4] END,
        'score', (i * 7919) % 1001,
        'amount', round(((i::bigint * 104729) % 1000000)::numeric / 100, 2),
        'active', i % 10 <> 0,
        'signup', to_char(date '2015-01-01' + (i * 37) % 3650, 'YYYY-MM-DD'),
        'last_seen', to_char(timestamptz '2024-01-01Z' + make_interval(secs => (i * 7907) % 31536000), 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'),
        'city', (ARRAY['Paris','Lyon','Marseille','Toulouse','Nice','Nantes','Lille','Bordeaux','Genève','Bruxelles'])[1 + (i * 3) % 10],
        'country', (ARRAY['FR','BE','CH','CA','DE','ES'])[1 + i % 6],
        'note', CASE WHEN i % 50 = 0 THEN 'prospect, first contact ' || i ELSE 'customer since ' || (2010 + i % 15) || ', account ' || i END,
        'phone', '+33 1 ' || lpad(((i * 7) % 100)::text, 2, '0') || ' ' || lpad(((i * 13) % 100)::text, 2, '0') || ' ' || lpad((i % 100)::text, 2, '0'),
        'company', (ARRAY['Acme','Globex','Initech','Umbrella','Hooli','Stark','Wayne','Wonka'])[1 + (i * 5) % 8] || ' ' || (ARRAY['SA','SAS','Ltd','GmbH'])[1 + i % 4],
        'employees', 1 + (i * 31) % 5000,
        'plan', (ARRAY['free','pro','team','enterprise'])[1 + (i * 11) % 4],
        'newsletter', i % 3 = 0,
        'renewal', CASE WHEN i % 7 = 0 THEN NULL ELSE to_char(date '2025-01-01' + (i * 17) % 730, 'YYYY-MM-DD') END,
        'tags', (ARRAY['vip','lead','partner','reseller','trial'])[1 + i % 5] || ' ' || (ARRAY['north','south','east','west'])[1 + (i / 5) % 4],
        'manager', (ARRAY['anna','ben','carla','dan'])[1 + i % 4] || '@mailflow.test',
        'comment', 'lorem ipsum dolor sit amet ' || (i % 997)
      )) AS c
      FROM generate_series(1, ${rowCount}) AS i
      OFFSET 0 -- computed once per row, not once per reference to c
    ) AS s
   ORDER BY i`;

interface RowsQuery {
  sort: string;
  dir: 'asc' | 'desc';
  q: string;
  filter: { column: string; op: string; value?: unknown; values?: unknown[] }[];
}

/** ~30 queries of the target shape: a filter on 3 columns, q, a sort; offset 90,000. */
function queries(): RowsQuery[] {
  const sorts = ['score', 'name', 'signup', 'last_seen', 'amount', 'city'];
  const words = ['customer', 'customer since', 'cust'];
  return Array.from({ length: 30 }, (_, i) => {
    const status = i % 2 === 0 ? { column: 'status', op: 'neq', value: 'churned' } : { column: 'status', op: 'in', values: ['new', 'active', 'paused'] };
    const third =
      i % 3 === 0
        ? { column: 'signup', op: 'gte', value: `2015-01-0${1 + (i % 5)}` }
        : i % 3 === 1
          ? { column: 'amount', op: 'lt', value: 9_990 + i }
          : { column: 'city', op: 'not_empty' };
    return {
      sort: sorts[i % sorts.length],
      dir: i % 4 < 2 ? 'asc' : 'desc',
      q: words[i % words.length],
      filter: [{ column: 'score', op: 'gte', value: i % 8 }, status, third],
    };
  });
}

function queryString(query: RowsQuery): string {
  const params = new URLSearchParams({
    offset: String(pageOffset),
    limit: String(pageLimit),
    sort: query.sort,
    dir: query.dir,
    q: query.q,
    filter: JSON.stringify(query.filter),
  });
  return params.toString();
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function summary(values: number[]) {
  const sorted = Float64Array.from(values).sort();
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? Number.NaN };
}

export interface TablesBenchOptions {
  /** A migrated database (the main bench's); the rows are added to it. */
  databaseUrl: string;
  log: (message: string) => void;
  /** Measured passes over the ~30 queries (route and floor interleaved). */
  rounds?: number;
}

export async function runTablesRowsBench(options: TablesBenchOptions): Promise<{ routeP95: number; floorP95: number }> {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_TABLES_ROUNDS) || 2);
  process.env.DATABASE_URL = options.databaseUrl;
  const { db, disconnectDb } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  const { createKey } = await import('../server/domains/api-keys/service');
  const { createTable } = await import('../server/domains/tables/service');
  const { prefixQuerySql, rowsStatement } = await import('../server/domains/tables/rows/query');
  const { checkConditions, checkSort, parseFilter } = await import('../server/domains/tables/rows/view');
  const { rowsTransactionBegin } = await import('../server/domains/tables/rows/read-transaction');
  const { parseTypedSlots } = await import('../server/domains/tables/rows/typed-slots');
  const { backfillTypedSlots } = await import('../server/domains/tables/rows/typed-slots-backfill');
  const { handleRestRequest } = await import('../server/http/rest-handler');
  resetConfigForTests();

  log('');
  log(`tables bench: GET /api/v1/tables/{id}/rows at the limits: ${rowCount.toLocaleString('en')} rows × ${columns.length} columns, filter on 3 columns + q + sort, offset ${pageOffset.toLocaleString('en')}, limit ${pageLimit}`);

  // Fixtures through the services: an administrator, the table, a tables:read key.
  const created = await db().member.create({
    data: { email: `tables-bench-${randomUUID().slice(0, 8)}@example.test`, name: 'Tables Bench', role: 'admin', status: 'active', passwordHash: 'x' },
  });
  const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: created.id, email: created.email, name: created.name, role: created.role, createdAt: created.createdAt } };
  const { table } = await createTable(actor, { name: `Bench rows ${randomUUID().slice(0, 6)}`, columns: columns.map((column) => ({ isKey: false, required: false, ...column, options: 'options' in column ? [...column.options] : [] })), keyUnique: true }, null);
  const { secret } = await createKey(actor, { name: 'tables bench', scopes: ['tables:read'] }, null);

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    // Seed: drop the secondary indexes, one INSERT … SELECT, rebuild them, ANALYZE.
    const seedStarted = performance.now();
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
        WHERE tablename = 'table_rows' AND indexname NOT IN ('table_rows_pkey', 'table_rows_table_id_unique_key_key')`,
    );
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
    await client.query(seedSql(table.id, created.id));
    for (const index of indexes) await client.query(index.definition);
    // The rows are seeded without typed slots (their text forms are the service's, in JavaScript):
    // the service's own backfill writes them, as for a table written before slots existed.
    await client.query('UPDATE data_tables SET row_count = $2, typed_slots = NULL WHERE id = $1', [table.id, rowCount]);
    const backfillStarted = performance.now();
    await backfillTypedSlots();
    const backfillSeconds = (performance.now() - backfillStarted) / 1000;
    await client.query('VACUUM (FULL, ANALYZE) table_rows');
    const { rows: sizes } = await client.query<{ heap: string; total: string; row_bytes: number }>(
      `SELECT pg_size_pretty(pg_relation_size('table_rows')) AS heap, pg_size_pretty(pg_total_relation_size('table_rows')) AS total,
              (SELECT avg(pg_column_size(t.*))::int FROM table_rows t WHERE table_id = $1) AS row_bytes`,
      [table.id],
    );
    const settings = await client.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'max_parallel_workers_per_gather', 'jit', 'server_version')`,
    );
    log(
      `seeded in ${fixed((performance.now() - seedStarted) / 1000)} s (indexes dropped and rebuilt: ${indexes.map((index) => index.name).join(', ')}; ` +
        `typed slots backfilled in ${fixed(backfillSeconds)} s); ` +
        `table_rows heap ${sizes[0].heap}, with indexes ${sizes[0].total}, ${sizes[0].row_bytes} bytes per row; ` +
        settings.rows.map((row) => `${row.name} ${row.setting}${row.unit ? ` × ${row.unit}` : ''}`).join(', '),
    );

    const tableColumns = table.columns;
    const slots = parseTypedSlots((await client.query('SELECT typed_slots FROM data_tables WHERE id = $1', [table.id])).rows[0].typed_slots);
    if (!slots) throw new Error('the backfill gave the table no typed slots');
    /** The floor: exactly the statements the service runs, in the same transaction shape, on bare pg. */
    const floor = async (query: RowsQuery) => {
      await client.query(rowsTransactionBegin('scan'));
      const tsquery = (await client.query<{ query: string | null }>(prefixQuerySql, [query.q])).rows[0].query;
      const statement = rowsStatement({
        tableId: table.id,
        conditions: checkConditions(tableColumns, parseFilter(JSON.stringify(query.filter))),
        match: 'all',
        tsquery,
        sort: checkSort(tableColumns, query.sort, query.dir),
        offset: pageOffset,
        limit: pageLimit,
        slots,
      });
      const result = await client.query<{ id: string; total: string }>(statement);
      await client.query('COMMIT');
      return { ids: result.rows.map((row) => row.id), total: Number(result.rows[0]?.total ?? 0) };
    };
    const route = async (query: RowsQuery) => {
      const response = await handleRestRequest(
        new Request(`http://127.0.0.1/api/v1/tables/${table.id}/rows?${queryString(query)}`, {
          headers: { authorization: `Bearer ${secret}`, accept: 'application/json', 'x-mailflow-client-ip': '127.0.0.1' },
        }),
      );
      const body = await response.json();
      if (response.status !== 200) throw new Error(`the route answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return { ids: (body.rows as { id: string }[]).map((row) => row.id), total: body.total as number };
    };

    const all = queries();
    // Correctness first: same page from both, a full page, and offset 90,000 inside the result.
    let minTotal = Infinity;
    for (const query of all) {
      const [viaRoute, viaFloor] = [await route(query), await floor(query)];
      if (viaRoute.ids.length !== pageLimit || viaRoute.ids.join() !== viaFloor.ids.join() || viaRoute.total !== viaFloor.total) {
        throw new Error(`route and floor disagree on ${JSON.stringify(query)}: ${viaRoute.ids.length} rows, totals ${viaRoute.total} / ${viaFloor.total}`);
      }
      minTotal = Math.min(minTotal, viaRoute.total);
    }
    log(`${all.length} queries checked (route and floor answer the same ${pageLimit} rows); matching rows per query ≥ ${minTotal.toLocaleString('en')} (each query sorts and counts them all)`);

    // PostgreSQL's CPU (backends, parallel workers, I/O workers) when the server runs on this machine.
    const backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const postmasterPid = Number(readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] ?? Number.NaN);
    const pgCpu = () => (Number.isFinite(postmasterPid) && Number.isFinite(processCpuMs(postmasterPid)) ? clusterCpuMs(postmasterPid) : Number.NaN);

    const routeMs: number[] = [];
    const floorMs: number[] = [];
    const pgCpuMs = { route: 0, floor: 0 };
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, query] of all.entries()) {
        // Alternate which goes first, so neither always runs on warmer caches.
        const order = (index + round) % 2 === 0 ? (['route', 'floor'] as const) : (['floor', 'route'] as const);
        for (const side of order) {
          const cpu0 = pgCpu();
          const t0 = performance.now();
          await (side === 'route' ? route(query) : floor(query));
          (side === 'route' ? routeMs : floorMs).push(performance.now() - t0);
          pgCpuMs[side] += pgCpu() - cpu0;
        }
      }
    }
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const r = summary(routeMs);
    const f = summary(floorMs);
    const rows = [
      ['', 'samples', 'p50 ms', 'p95 ms', 'max ms', 'pg CPU ms/query'],
      ['route: handleRestRequest, API key', String(routeMs.length), fixed(r.p50), fixed(r.p95), fixed(r.max), fixed(pgCpuMs.route / routeMs.length, 0)],
      ['floor: same SQL on bare pg', String(floorMs.length), fixed(f.p50), fixed(f.p95), fixed(f.max), fixed(pgCpuMs.floor / floorMs.length, 0)],
      ['route / floor', '', `${fixed(r.p50 / f.p50, 2)}×`, `${fixed(r.p95 / f.p95, 2)}×`, '', ''],
    ];
    const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
    for (const row of rows) log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
    log(
      `  ${rounds} rounds × ${all.length} queries, one at a time, in ${fixed(elapsed / 1000)} s; this process used ${fixed((cpu.user + cpu.system) / 1000 / routeMs.length, 1)} ms CPU per route+floor pair; ` +
        `pg CPU = PostgreSQL's processes (backend, parallel and I/O workers), independent of other load; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    );
    log(`  ${r.p95 < targetP95Ms ? 'PASS' : 'MISS'}  route p95 < ${targetP95Ms} ms: ${fixed(r.p95)} ms (timing is noisy: information, not an exit code)`);
    return { routeP95: r.p95, floorP95: f.p95 };
  } finally {
    await client.end();
    await disconnectDb();
  }
}

// Alone: `npx tsx bench/tables-rows.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runTablesRowsBench);
