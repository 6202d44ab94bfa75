/**
 * The executions list and detail at 1,000,000 stored executions (part of bench/engine.ts; alone:
 * `npx tsx bench/engine-lists.ts`, embedded PostgreSQL or BENCH_DATABASE_URL):
 *
 *   seeded for one member by SQL generate_series (bench/engine-seed.ts: 20 workflows, statuses, mail
 *   headlines, 8 steps on every 100th execution; secondary indexes dropped for the load and rebuilt after it,
 *   then VACUUM ANALYZE);
 *   shapes: the first page, a page 100,000 deep by cursor, a workflow filter, `status=failed`, `q` on the
 *   headline's subject, `effects=without` and `effects=with` (issue 19), and the detail of an execution with
 *   8 steps; the plan of each list shape's id statement is logged (EXPLAIN), and a sequential scan of
 *   `executions` fails the bench;
 *
 * each through the in-process REST handler (`handleRestRequest`, API key: authentication, rate limit, scope,
 * zod, the service, the envelope; no socket) and, as the floor, as the same SQL on bare `pg`: every statement
 * the route runs (the key lookup; for a list the id statement of server/domains/executions/repo.ts and the
 * list columns by id; for the detail the execution, its steps and its workflow's name). Targets: route p95 <
 * 150 ms, route / floor ≤ 1.3 (PASS/MISS, information only).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { runSectionAlone } from './database';
import { executionIndexes, seedExecutions } from './engine-seed';
import { fixed, measureRouteVsFloor, type RouteFloorResult } from './stats';

const executionCount = Number(process.env.BENCH_ENGINE_EXECUTIONS) || 1_000_000;
const workflowCount = 20;
const stepsEvery = 100;
const pageLimit = 50;
/** The deep page's position: 100,000, or half the executions in a smaller run. */
const deepPage = Math.min(100_000, Math.floor(executionCount / 2));
const targets = { p95Ms: 150, ratio: 1.3 };

interface Shape {
  name: string;
  /** A list query, or the detail of one execution (`detail`). */
  query?: Record<string, string>;
  detail?: boolean;
  /** Rows to skip (newest first) before the page: the cursor is the row just before. */
  depth?: number;
}


/** The columns of the list form (server/domains/executions/present.ts `executionListSelect`). */
const listColumns = `id, workflow_id, workflow_version_id, created_at, mailbox_id, message_id, status, simulated, parent_execution_id,
  trigger_node_id, trigger_type, retry_of_execution_id, message_headline, error, started_at, finished_at`;

export type EngineListsResult = RouteFloorResult;

export async function runEngineListsBench(options: { databaseUrl: string; log: (message: string) => void; rounds?: number }): Promise<EngineListsResult> {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_ENGINE_LIST_ROUNDS) || 5);
  process.env.DATABASE_URL = options.databaseUrl;
  const { db, disconnectDb } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  const { apiKeyLookupSql } = await import('../server/core/auth/authenticate');
  const { tokenHash } = await import('../server/core/auth/tokens');
  const { encodeCursor, decodeCursor } = await import('../server/core/http/cursor');
  const { createKey } = await import('../server/domains/api-keys/service');
  const { handleRestRequest } = await import('../server/http/rest-handler');
  resetConfigForTests();

  log('');
  log(`executions list and detail: GET /api/v1/executions and GET /api/v1/executions/{id} at ${executionCount.toLocaleString('en')} stored executions, limit ${pageLimit}`);

  const created = await db().member.create({
    data: { email: `engine-bench-${randomUUID().slice(0, 8)}@example.test`, name: 'Engine Bench', role: 'member', status: 'active', passwordHash: 'x' },
  });
  const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: created.id, email: created.email, name: created.name, role: created.role, createdAt: created.createdAt } };
  const routeKey = (await createKey(actor, { name: 'engine bench route', scopes: ['executions:read'] }, null)).secret;
  const floorKey = (await createKey(actor, { name: 'engine bench floor', scopes: ['executions:read'] }, null)).secret;
  const workflows: { id: string; versionId: string }[] = [];
  for (let index = 0; index < workflowCount; index += 1) {
    const workflow = await db().workflow.create({ data: { memberId: created.id, name: `Bench workflow ${index + 1}` } });
    const version = await db().workflowVersion.create({ data: { workflowId: workflow.id, number: 1, graph: { nodes: [], connections: [] }, triggerType: 'mail', triggerNodeId: 'start' } });
    await db().workflow.update({ where: { id: workflow.id }, data: { publishedVersionId: version.id } });
    workflows.push({ id: workflow.id, versionId: version.id });
  }

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const seedStarted = performance.now();
    const indexes = await executionIndexes(client);
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
    await seedExecutions(client, { memberId: created.id, workflows, count: executionCount, stepsEvery });
    for (const index of indexes) await client.query(index.definition);
    await client.query('VACUUM ANALYZE executions');
    await client.query('VACUUM ANALYZE execution_steps');
    const { rows: sizes } = await client.query<{ executions: string; steps: string; step_rows: string; version: string; shared: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('executions')) AS executions, pg_size_pretty(pg_total_relation_size('execution_steps')) AS steps,
              (SELECT count(*) FROM execution_steps)::text AS step_rows, current_setting('server_version') AS version, current_setting('shared_buffers') AS shared`,
    );
    log(
      `seeded in ${fixed((performance.now() - seedStarted) / 1000)} s; executions ${sizes[0].executions}, execution_steps ${sizes[0].steps} ` +
        `(${Number(sizes[0].step_rows).toLocaleString('en')} steps) with indexes; PostgreSQL ${sizes[0].version}, shared_buffers ${sizes[0].shared}`,
    );

    const { rows: detailRows } = await client.query<{ id: string }>(
      `SELECT e.id FROM executions e WHERE e.member_id = $1::uuid AND EXISTS (SELECT 1 FROM execution_steps s WHERE s.execution_id = e.id)
        ORDER BY e.created_at DESC OFFSET 100 LIMIT 20`,
      [created.id],
    );
    const detailIds = detailRows.map((row) => row.id);
    const shapes: Shape[] = [
      { name: 'first page', query: {} },
      { name: `page at ${deepPage.toLocaleString('en')} (cursor)`, query: {}, depth: deepPage },
      { name: 'workflowId (5 %)', query: { workflowId: workflows[3].id } },
      { name: 'status=failed (5 %)', query: { status: 'failed' } },
      { name: 'q on the subject (≈ 4 %)', query: { q: 'invoice' } },
      { name: 'effects=without (≈ 10 %)', query: { effects: 'without' } },
      { name: 'effects=with (≈ 89 %)', query: { effects: 'with' } },
      { name: 'detail, 8 steps', detail: true },
    ];

    const cursorAt = async (shape: Shape): Promise<string | undefined> => {
      if (!shape.depth) return undefined;
      const { rows } = await client.query<{ at: Date; id: string }>(
        'SELECT created_at AS at, id FROM executions WHERE member_id = $1::uuid ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1',
        [created.id, shape.depth - 1],
      );
      return encodeCursor({ at: rows[0].at, id: rows[0].id });
    };

    const request = (url: string) =>
      handleRestRequest(new Request(`http://127.0.0.1${url}`, { headers: { authorization: `Bearer ${routeKey}`, accept: 'application/json', 'x-mailflow-client-ip': '127.0.0.1' } }));

    /** The route: ids of the page, or of the detail's steps. */
    async function route(shape: Shape, cursor: string | undefined, detailId: string): Promise<string[]> {
      if (shape.detail) {
        const response = await request(`/api/v1/executions/${detailId}`);
        const body = await response.json();
        if (response.status !== 200) throw new Error(`the detail answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return [body.id, ...(body.steps as { id: string }[]).map((step) => step.id)];
      }
      const query = new URLSearchParams({ ...shape.query, limit: String(pageLimit), ...(cursor ? { cursor } : {}) });
      const response = await request(`/api/v1/executions?${query.toString()}`);
      const body = await response.json();
      if (response.status !== 200) throw new Error(`the list answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return (body.executions as { id: string }[]).map((execution) => execution.id);
    }

    /** The list's id statement exactly as server/domains/executions/repo.ts builds it (run, or explained). */
    async function idStatement(shape: Shape, cursor: string | undefined, explain = false) {
      const values: unknown[] = [created.id];
      const where = ['member_id = $1::uuid'];
      const add = (value: unknown) => `$${values.push(value)}`;
      if (shape.query?.workflowId) where.push(`workflow_id = ${add(shape.query.workflowId)}::uuid`);
      if (shape.query?.status) where.push(`status = ${add(shape.query.status)}`);
      if (shape.query?.effects) where.push(`acted = ${add(shape.query.effects === 'with')}`);
      if (shape.query?.q) {
        const pattern = add(`%${shape.query.q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
        where.push(`(message_headline->>'subject' ILIKE ${pattern} OR message_headline->>'fromEmail' ILIKE ${pattern} OR message_headline->>'fromName' ILIKE ${pattern})`);
      }
      const after = decodeCursor(cursor);
      if (after) {
        const at = add(after.at);
        where.push(`(created_at, id) < (${at}::timestamptz, ${add(after.id)}::uuid)`);
      }
      const limit = add(pageLimit + 1);
      const sql = `SELECT id FROM executions WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${limit}::int`;
      if (explain) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, values);
        return { ids: [] as { id: string }[], plan: rows.map((row) => row['QUERY PLAN']) };
      }
      const { rows: ids } = await client.query<{ id: string }>(sql, values);
      return { ids, plan: [] as string[] };
    }

    /** The floor: every statement the route runs, on bare pg. */
    async function floor(shape: Shape, cursor: string | undefined, detailId: string): Promise<string[]> {
      const { rows: keys } = await client.query(apiKeyLookupSql, [tokenHash(floorKey), Math.floor(Date.now() / 1000)]);
      if (keys.length === 0) throw new Error('floor: key lookup failed');
      if (shape.detail) {
        const { rows: executions } = await client.query<{ id: string; workflow_id: string }>(
          'SELECT * FROM executions WHERE id = $1::uuid AND member_id = $2::uuid LIMIT 1',
          [detailId, created.id],
        );
        const [steps] = await Promise.all([
          client.query<{ id: string }>('SELECT * FROM execution_steps WHERE execution_id = $1::uuid ORDER BY seq ASC, started_at ASC NULLS LAST, id ASC', [detailId]),
          client.query('SELECT name FROM workflows WHERE id = $1::uuid AND member_id = $2::uuid LIMIT 1', [executions[0].workflow_id, created.id]),
        ]);
        return [executions[0].id, ...steps.rows.map((step) => step.id)];
      }
      const { ids } = await idStatement(shape, cursor);
      const { rows } = await client.query<{ id: string }>(`SELECT ${listColumns} FROM executions WHERE id = ANY($1::uuid[])`, [ids.map((row) => row.id)]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.slice(0, pageLimit).flatMap((row) => (byId.has(row.id) ? [row.id] : []));
    }

    // Correctness first (and a warm-up): route and floor answer the same page (or the same detail).
    const cursors = new Map<Shape, string | undefined>();
    for (const shape of shapes) {
      const cursor = await cursorAt(shape);
      cursors.set(shape, cursor);
      const [viaRoute, viaFloor] = [await route(shape, cursor, detailIds[0]), await floor(shape, cursor, detailIds[0])];
      if (viaRoute.join() !== viaFloor.join()) throw new Error(`route and floor disagree on ${shape.name}`);
      if (shape.detail ? viaRoute.length !== 9 : viaRoute.length !== pageLimit) throw new Error(`${shape.name}: ${viaRoute.length} items, expected a full page (or 8 steps)`);
    }
    log(`${shapes.length} shapes checked (route and floor answer the same full page, or the same execution with its 8 steps)`);
    // Plans: every list filter is served by an index in the list's order (a sequential scan of 1,000,000 rows is a bug).
    for (const shape of shapes) {
      if (shape.detail) continue;
      const { plan } = await idStatement(shape, cursors.get(shape), true);
      const scans = plan.filter((line) => /Scan/.test(line)).map((line) => line.trim().replace(/\s+\(cost=.*$/, '').replace(/^->\s*/, ''));
      log(`plan of ${shape.name}: ${scans.join('; ')}`);
      if (plan.some((line) => /Seq Scan on executions/.test(line))) throw new Error(`${shape.name}: the list's id statement scans executions sequentially`);
    }

    // Each pass runs the shapes 4 times (20 details rotate: route and floor of one turn read the same one).
    let routeTurn = 0;
    let floorTurn = 0;
    return await measureRouteVsFloor({
      shapes,
      passes: rounds * 4,
      route: (shape) => route(shape, cursors.get(shape), detailIds[routeTurn++ % detailIds.length]),
      floor: (shape) => floor(shape, cursors.get(shape), detailIds[floorTurn++ % detailIds.length]),
      targets,
      log,
    });
  } finally {
    await client.end();
    await disconnectDb();
  }
}

// Alone: `npx tsx bench/engine-lists.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runEngineListsBench);
