/**
 * The dashboard's three routes at 1,000,000 executions, 500,000 journal entries and 200,000 AI usage rows
 * (part of bench/run.ts, BENCH_DASHBOARD=0 skips it; alone: `npx tsx bench/dashboard.ts`, embedded
 * PostgreSQL or BENCH_DATABASE_URL):
 *
 *   an organisation of 10 members (one administrator), 2 mailboxes and 2 workflows each, and its facts seeded
 *   by SQL generate_series (bench/dashboard-seed.ts; secondary indexes dropped for the load and rebuilt after
 *   it, triggers off; then the rollups filled by the runner's reconcile over the whole history, timed: the cost
 *   of a backfill; then VACUUM ANALYZE), twice: spread over a year (≈ 82,000 executions in a 30-day window), then all in
 *   the last 30 days (the worst case for `period=30d`). The section first empties the fact tables (earlier
 *   sections' executions would count in `scope=org`).
 *   shapes, for each route: `period=30d` as a member (1/10 of the facts), `period=30d&scope=org` as the
 *   administrator, `period=24h&scope=org`, `period=30d&scope=org&workflowId=…`, `period=30d&scope=org&tz=Europe/Paris`;
 *   the plan of each statement is logged (EXPLAIN ANALYZE: time, scans, sorts), with the raw statements the
 *   executions rollup replaced as "before" (`executionFiguresRawSql`), and over a year a sequential scan of a big
 *   table fails the bench (after the figures, "before" statements aside);
 *
 * each through the in-process REST handler (`handleRestRequest`, API key: authentication, rate limit, scope,
 * zod, the service, the envelope; no socket) and, as the floor, the same statements on bare `pg` with a pool of
 * the app's size: the key lookup, the window's bucket starts, then the route's own counting statements
 * (bench/dashboard-sql.ts, from the routes' exported builders) in parallel as the route runs them. Targets:
 * route p95 < 150 ms, route / floor ≤ 1.3 (PASS/MISS, information only). Then the candidate covering indexes of
 * bench/dashboard-sql.ts are built, the plans and figures taken again, and the indexes dropped.
 *
 * Knobs: BENCH_DASHBOARD_EXECUTIONS (1,000,000), BENCH_DASHBOARD_JOURNAL (500,000), BENCH_DASHBOARD_USAGE
 * (200,000), BENCH_DASHBOARD_SPREADS (`year,month`), BENCH_DASHBOARD_ROUNDS (passes over the shapes, 8),
 * BENCH_DASHBOARD_CANDIDATES (`0`: no candidate-index pass).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { runSectionAlone } from './database';
import { clearDashboardFacts, dashboardIndexes, rollupTables, seedDashboardFacts, seededTables, withoutTriggers, type DashboardOrg, type Spread } from './dashboard-seed';
import { fixed, measureRouteVsFloor, type RouteFloorResult } from './stats';
import { candidateIndexes, floorSql, type DashboardRoute, type FloorSql, type RouteBuilders, type Statement } from './dashboard-sql';

const sizes = {
  executions: Number(process.env.BENCH_DASHBOARD_EXECUTIONS) || 1_000_000,
  journal: Number(process.env.BENCH_DASHBOARD_JOURNAL) || 500_000,
  usage: Number(process.env.BENCH_DASHBOARD_USAGE) || 200_000,
};
const spreads = (process.env.BENCH_DASHBOARD_SPREADS ?? 'year,month').split(',').map((value) => value.trim()).filter((value): value is Spread => value === 'year' || value === 'month');
const memberCount = 10;
const targets = { p95Ms: 150, ratio: 1.3 };
const routes: DashboardRoute[] = ['executions', 'mail', 'ai'];
/** Keys per reader and side, used in turn: each stays far below the 600-per-minute limit. */
const keysPerReader = 4;

interface Shape {
  name: string;
  route: DashboardRoute;
  reader: 'member' | 'admin';
  query: Record<string, string>;
}

/** Route vs floor by `<spread> <route> <indexes>`. */
export type DashboardResult = Record<string, RouteFloorResult>;

export async function runDashboardBench(options: { databaseUrl: string; log: (message: string) => void; rounds?: number }): Promise<DashboardResult> {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_DASHBOARD_ROUNDS) || 8);
  process.env.DATABASE_URL = options.databaseUrl;
  const { db, disconnectDb } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  const { apiKeyLookupSql } = await import('../server/core/auth/authenticate');
  const { tokenHash } = await import('../server/core/auth/tokens');
  const { createKey } = await import('../server/domains/api-keys/service');
  const { handleRestRequest } = await import('../server/http/rest-handler');
  const { dashboardQueryInput } = await import('../server/domains/dashboard/query');
  const { reconcileDashboardRollups } = await import('../server/domains/dashboard/rollups/reconcile');
  const builders: RouteBuilders = {
    executionFiguresSql: (await import('../server/domains/dashboard/executions-sql')).executionFiguresSql,
    executionFiguresRawSql: (await import('../server/domains/dashboard/executions-sql')).executionFiguresRawSql,
    mailFiguresSql: (await import('../server/domains/dashboard/mail-sql')).mailFiguresSql,
    aiFiguresSql: (await import('../server/domains/dashboard/ai-sql')).aiFiguresSql,
    mailFiguresRawSql: (await import('../server/domains/dashboard/mail-sql')).mailFiguresRawSql,
    aiFiguresRawSql: (await import('../server/domains/dashboard/ai-sql')).aiFiguresRawSql,
    monthOf: (await import('../server/domains/llm/cost')).monthOf,
  };
  resetConfigForTests();

  log('');
  log(
    `dashboard: GET /api/v1/dashboard/{executions,mail,ai} at ${sizes.executions.toLocaleString('en')} executions, ` +
      `${sizes.journal.toLocaleString('en')} journal entries, ${sizes.usage.toLocaleString('en')} AI usage rows; spreads: ${spreads.join(', ')}`,
  );

  // The organisation: member 0 is the administrator; two mailboxes and two workflows each (in member order).
  const tag = randomUUID().slice(0, 8);
  const org: DashboardOrg = { admin: { id: '' }, members: [], mailboxes: [], workflows: [] };
  const keys = { member: { route: [] as string[], floor: [] as string[] }, admin: { route: [] as string[], floor: [] as string[] } };
  for (let index = 0; index < memberCount; index += 1) {
    const member = await db().member.create({
      data: { email: `dashboard-bench-${tag}-${index}@example.test`, name: `Member ${index + 1}`, role: index === 0 ? 'admin' : 'member', status: 'active', passwordHash: 'x' },
    });
    org.members.push({ id: member.id, name: member.name });
    for (let box = 0; box < 2; box += 1) {
      const mailbox = await db().mailbox.create({ data: { memberId: member.id, provider: 'imap', address: `m${index}-${box}-${tag}@example.test` } });
      org.mailboxes.push({ id: mailbox.id, memberId: member.id });
    }
    for (let flow = 0; flow < 2; flow += 1) {
      const workflow = await db().workflow.create({ data: { memberId: member.id, name: `Workflow ${2 * index + flow + 1}` } });
      const version = await db().workflowVersion.create({ data: { workflowId: workflow.id, number: 1, graph: { nodes: [], connections: [] }, triggerType: 'mail', triggerNodeId: 'start' } });
      await db().workflow.update({ where: { id: workflow.id }, data: { publishedVersionId: version.id } });
      org.workflows.push({ id: workflow.id, versionId: version.id, memberId: member.id });
    }
    // Readers: the administrator (index 0) and one member with a tenth of the facts (index 1).
    const reader = index === 0 ? 'admin' : index === 1 ? 'member' : null;
    if (reader) {
      const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: member.createdAt } };
      for (let turn = 0; turn < keysPerReader; turn += 1) {
        keys[reader].route.push((await createKey(actor, { name: `dashboard bench route ${turn}`, scopes: ['dashboard:read'] }, null)).secret);
        keys[reader].floor.push((await createKey(actor, { name: `dashboard bench floor ${turn}`, scopes: ['dashboard:read'] }, null)).secret);
      }
    }
  }
  org.admin = { id: org.members[0].id };
  const reader = { admin: org.members[0].id, member: org.members[1].id };
  // A workflow of the member reader: 1/20 of the facts (5 % of the organisation's runs).
  const workflowId = org.workflows[2].id;

  const shapes: Shape[] = routes.flatMap((route): Shape[] => [
    { name: `${route} 30d me`, route, reader: 'member' as const, query: { period: '30d' } },
    { name: `${route} 30d org`, route, reader: 'admin' as const, query: { period: '30d', scope: 'org' } },
    { name: `${route} 24h org`, route, reader: 'admin' as const, query: { period: '24h', scope: 'org' } },
    { name: `${route} 30d org workflowId`, route, reader: 'admin' as const, query: { period: '30d', scope: 'org', workflowId } },
    { name: `${route} 30d org Europe/Paris`, route, reader: 'admin' as const, query: { period: '30d', scope: 'org', tz: 'Europe/Paris' } },
  ]);

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: Number(process.env.DATABASE_POOL_SIZE) || 10 });
  const results: DashboardResult = {};
  try {
    const turns = { route: 0, floor: 0 };
    const keyFor = (shape: Shape, side: 'route' | 'floor') => keys[shape.reader][side][turns[side]++ % keysPerReader];

    const request = (shape: Shape) =>
      handleRestRequest(
        new Request(`http://127.0.0.1/api/v1/dashboard/${shape.route}?${new URLSearchParams(shape.query).toString()}`, {
          headers: { authorization: `Bearer ${keyFor(shape, 'route')}`, accept: 'application/json', 'x-mailflow-client-ip': '127.0.0.1' },
        }),
      );

    /** The route's answer (or null when the route is not there yet). */
    async function route(shape: Shape): Promise<Record<string, unknown> | null> {
      const response = await request(shape);
      const body = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200) {
        if (!routeReady.has(shape.route)) return null;
        throw new Error(`${shape.name} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      }
      return body;
    }

    /** The statements the route runs for a shape: the window's buckets, then its counting statements. */
    function sqlOf(shape: Shape, now: Date): FloorSql {
      const query = dashboardQueryInput.parse(shape.query);
      const memberId = query.scope === 'org' ? (query.memberId ?? null) : reader[shape.reader];
      const audience = { memberId, mailboxId: query.mailboxId ?? null, workflowId: query.workflowId ?? null, isAdmin: shape.reader === 'admin' };
      return floorSql(shape.route, audience, query, now, memberId ?? reader[shape.reader], builders);
    }

    /**
     * The window's statement, then the counting statements (with its bucket starts), as the floor runs them; then
     * the raw statements the rollups replaced ("before", plans only: neither route nor floor runs them).
     */
    async function statementsOf(shape: Shape, now: Date): Promise<(Statement & { before?: true })[]> {
      const sql = sqlOf(shape, now);
      const { rows } = await pool.query<{ start: Date }>(sql.window.sql, sql.window.values);
      const starts = rows.map((row) => row.start);
      return [sql.window, ...sql.counting(starts), ...sql.before(starts).map((statement) => ({ ...statement, before: true as const }))];
    }

    /**
     * The floor: every statement the route runs, on bare pg with a pool of the app's size: the key lookup, the
     * window's bucket starts, then the counting statements in parallel (as the route runs them).
     */
    async function floor(shape: Shape): Promise<{ total: number }> {
      const { rows: found } = await pool.query(apiKeyLookupSql, [tokenHash(keyFor(shape, 'floor')), Math.floor(Date.now() / 1000)]);
      if (found.length === 0) throw new Error('floor: key lookup failed');
      const sql = sqlOf(shape, new Date());
      const { rows } = await pool.query<{ start: Date }>(sql.window.sql, sql.window.values);
      const statements = sql.counting(rows.map((row) => row.start));
      const answers = await Promise.all(statements.map((statement) => pool.query(statement.sql, statement.values)));
      return { total: sql.total(answers) };
    }

    /** Routes that answer 200 (the others are measured floor-only until they exist). */
    const routeReady = new Set<DashboardRoute>();
    const sequentialScans: string[] = [];
    /** Routes that answered something else than 200 once (asked once per spread, not per shape). */
    const routeMissing = new Set<DashboardRoute>();

    for (const spread of spreads) {
      log('');
      log(`— spread "${spread}": ${spread === 'year' ? 'uniform over the last 365 days' : 'all in the last 30 days'}`);
      const seedStarted = performance.now();
      routeMissing.clear();
      await clearDashboardFacts(client);
      const indexes = await dashboardIndexes(client);
      await client.query(`SET maintenance_work_mem = '256MB'`);
      for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
      await withoutTriggers(client, () => seedDashboardFacts(client, org, sizes, spread));
      for (const index of indexes) await client.query(index.definition);
      // The rollups, from the loaded rows: the runner's daily reconcile over the whole history (a backfill's cost).
      const reconcileStarted = performance.now();
      const reconciled = await reconcileDashboardRollups({ history: true });
      log(
        `rollups filled by the reconcile over the whole history in ${fixed((performance.now() - reconcileStarted) / 1000)} s: ` +
          Object.entries(reconciled.fixed).map(([name, rows]) => `${name} ${rows.toLocaleString('en')} rows`).join(', '),
      );
      for (const name of [...seededTables, ...rollupTables]) await client.query(`VACUUM ANALYZE ${name}`);
      const { rows: counts } = await client.query<Record<string, string>>(
        `SELECT ${seededTables.map((name) => `(SELECT count(*) FROM ${name})::text AS ${name}, pg_size_pretty(pg_total_relation_size('${name}')) AS ${name}_size`).join(', ')},
                (SELECT count(*) FROM executions WHERE created_at > now() - interval '30 days')::text AS window30`,
      );
      const row = counts[0];
      log(
        `seeded in ${fixed((performance.now() - seedStarted) / 1000)} s: ` +
          seededTables.map((name) => `${name} ${Number(row[name]).toLocaleString('en')} (${row[`${name}_size`]})`).join(', ') +
          `; executions in the last 30 days: ${Number(row.window30).toLocaleString('en')}`,
      );

      // Correctness first (and a warm-up): the route answers, and its totals are the floor's.
      for (const shape of shapes) {
        const viaRoute = routeMissing.has(shape.route) ? null : await route(shape);
        const viaFloor = await floor(shape);
        if (viaRoute) routeReady.add(shape.route);
        else routeMissing.add(shape.route);
        const floorSum = viaFloor.total;
        const routeTotal = viaRoute ? routeTotalOf(shape.route, viaRoute) : null;
        if (routeTotal !== null && Math.abs(routeTotal - floorSum) > Math.max(2, floorSum * 1e-4)) {
          log(`  ${shape.name}: route total ${routeTotal}, floor total ${floorSum} (they disagree)`);
        }
      }
      const missing = routes.filter((name) => !routeReady.has(name));
      log(`${shapes.length} shapes checked${missing.length ? `; not answering yet (measured floor-only): ${missing.join(', ')}` : ''}`);

      await measurePhase(spread, 'schema indexes');
      if (candidateIndexes.length && process.env.BENCH_DASHBOARD_CANDIDATES !== '0') {
        const started = performance.now();
        for (const index of candidateIndexes) await client.query(index.sql);
        for (const name of seededTables) await client.query(`VACUUM ANALYZE ${name}`);
        log('');
        log(`candidate indexes built in ${fixed((performance.now() - started) / 1000)} s: ${candidateIndexes.map((index) => index.name).join(', ')}`);
        await measurePhase(spread, 'schema + candidate indexes');
        for (const index of candidateIndexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
      }
    }

    /** Plans, then route vs floor for each route. */
    async function measurePhase(spread: Spread, label: string) {
      // Plans: each statement's scans and its time (EXPLAIN ANALYZE). Over a year a 30-day window is 8 % of the
      // rows: a sequential scan of a big table is then a bug (over a month the window is the whole table, and
      // reading it all is the right plan).
      log(`plans (${label}): EXPLAIN ANALYZE time and scans of each statement`);
      for (const shape of shapes) {
        for (const statement of await statementsOf(shape, new Date())) {
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.values);
          const plan = rows.map((line) => line['QUERY PLAN']);
          const scans = plan
            .filter((line) => /Scan|Sort Method|Workers Launched/.test(line))
            .map((line) => line.trim().replace(/\s+\(cost=.*?\)/, '').replace(/^->\s*/, '').replace(/\s+\(never executed\)/, '').replace(/\(actual time=[\d.]+\.\.([\d.]+) rows=([\d.]+) loops=(\d+)\)/, (_, ms, rows, loops) => `(${Number(rows)} rows${loops === '1' ? '' : ` × ${loops}`}, ${ms} ms)`));
          const time = plan.find((line) => /^Execution Time/.test(line))?.replace(/^Execution Time: ([\d.]+) ms$/, '$1') ?? '-';
          log(`  ${`${shape.name} / ${statement.name}`.padEnd(48)} ${time.padStart(9)} ms  ${scans.join('; ') || '(no scan)'}`);
          const big = sizes.executions >= 500_000 && spread === 'year';
          if (big && !statement.before && plan.some((line) => /Seq Scan on (executions|mail_journal_entries)\b/.test(line))) sequentialScans.push(`${spread}, ${label}: ${shape.name} / ${statement.name}`);
        }
      }

      for (const name of routes) {
        const routeShapes = shapes.filter((shape) => shape.route === name);
        log(`${name} (${label})${routeReady.has(name) ? '' : ': the route does not answer yet, so the floor is timed twice and the ratio means nothing'}:`);
        const measured = await measureRouteVsFloor({
          shapes: routeShapes,
          passes: rounds,
          route: (shape) => (routeReady.has(shape.route) ? route(shape) : floor(shape)),
          floor,
          targets,
          log,
        });
        results[`${spread} ${name} ${label}`] = measured;
      }
    }
    // After the figures (they are worth seeing either way): a sequential scan of a big table is a bug.
    if (sequentialScans.length) throw new Error(`a statement scans a big table sequentially: ${sequentialScans.join(', ')}`);
    return results;
  } finally {
    await client.end();
    await pool.end();
    await disconnectDb();
  }
}

/** The figure both sides must agree on: runs, mail received or AI calls of the window. */
function routeTotalOf(route: DashboardRoute, body: Record<string, unknown>): number {
  const current = body.current as Record<string, number>;
  return route === 'executions' ? current.total : route === 'mail' ? current.received : current.calls;
}

// Alone: `npx tsx bench/dashboard.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runDashboardBench);
