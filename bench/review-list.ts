/**
 * The morning review queue at 100,000 stored outbound messages of one member (part of `npm run bench`,
 * BENCH_REVIEW=0 skips it; alone: `npx tsx bench/review-list.ts`, embedded PostgreSQL or BENCH_DATABASE_URL):
 *
 *   seeded by SQL generate_series across 8 mailboxes and 10 workflows: 60 % pending, 10 % snoozed (still
 *   asleep), 15 % sent, 10 % rejected, 5 % without review; secondary indexes dropped for the load and rebuilt
 *   after it, then VACUUM ANALYZE;
 *   shapes: the first page, a page 25,000 deep by cursor, a mailbox filter (1/8), a workflow filter (1/10),
 *   `status=all`;
 *
 * each through the in-process REST handler (`handleRestRequest`, API key: authentication, rate limit, scope,
 * zod, the service, the envelope; no socket) and, as the floor, as the same SQL on bare `pg`: every statement
 * the route runs (the key lookup, the wake-up of snoozed items whose time came, the page, the pending count).
 * Targets: route p95 < 150 ms, route / floor ≤ 1.3 (PASS/MISS, information only).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { runSectionAlone } from './database';
import { fixed, measureRouteVsFloor, type RouteFloorResult } from './stats';

const itemCount = Number(process.env.BENCH_REVIEW_ITEMS) || 100_000;
const mailboxCount = 8;
const workflowCount = 10;
const pageLimit = 25;
const deepPage = Math.min(25_000, Math.floor(itemCount * 0.3));
const targets = { p95Ms: 150, ratio: 1.3 };

interface Shape {
  name: string;
  query: Record<string, string>;
  depth?: number;
}

export type ReviewListResult = RouteFloorResult;

export async function runReviewListBench(options: { databaseUrl: string; log: (message: string) => void; rounds?: number }): Promise<ReviewListResult> {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_REVIEW_ROUNDS) || 5);
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
  log(`review queue: GET /api/v1/review at ${itemCount.toLocaleString('en')} stored outbound messages of one member, limit ${pageLimit}`);

  const member = await db().member.create({
    data: { email: `review-bench-${randomUUID().slice(0, 8)}@example.test`, name: 'Review Bench', role: 'member', status: 'active', passwordHash: 'x' },
  });
  const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: member.createdAt } };
  const routeKey = (await createKey(actor, { name: 'review bench route', scopes: ['review:read'] }, null)).secret;
  const floorKey = (await createKey(actor, { name: 'review bench floor', scopes: ['review:read'] }, null)).secret;
  const mailboxes: { id: string; address: string }[] = [];
  for (let index = 0; index < mailboxCount; index += 1) {
    mailboxes.push(await db().mailbox.create({ data: { memberId: member.id, provider: 'imap', address: `bench-${index}-${randomUUID().slice(0, 6)}@example.test`, status: 'active' }, select: { id: true, address: true } }));
  }
  const workflows: string[] = [];
  for (let index = 0; index < workflowCount; index += 1) workflows.push((await db().workflow.create({ data: { memberId: member.id, name: `Bench workflow ${index + 1}` } })).id);

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const seedStarted = performance.now();
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'outbound_messages' AND indexname NOT LIKE '%_pkey'`,
    );
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
    // One row a second back from now, newest first; statuses by position (60/10/15/10/5 %).
    await client.query(
      `INSERT INTO outbound_messages (id, member_id, mailbox_id, mailbox_address, mode, origin, review_status, review_at, snooze_until, send_status,
         to_addrs, cc_addrs, subject, body_text, message_id_header, workflow_id, workflow_name, node_id, node_type, execution_id, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, (($2::uuid[])[1 + g % ${mailboxCount}]), (($3::text[])[1 + g % ${mailboxCount}]),
         CASE WHEN g % 3 = 0 THEN 'draft' ELSE 'send' END, 'workflow',
         s.review_status,
         CASE WHEN s.review_status IN ('sent', 'rejected') THEN now() - make_interval(secs => g) + interval '1 hour' END,
         CASE WHEN s.review_status = 'snoozed' THEN now() + interval '3 days' END,
         CASE s.review_status WHEN 'sent' THEN 'done' WHEN 'rejected' THEN 'cancelled' WHEN 'none' THEN 'done' ELSE 'pending' END,
         ARRAY['customer' || (g % 5000) || '@example.test'], ARRAY[]::text[],
         'Re: your request #' || g, 'Hello, here is the answer to request ' || g || '.',
         '<' || gen_random_uuid() || '@example.test>',
         (($4::uuid[])[1 + g % ${workflowCount}]), 'Bench workflow', 'reply', 'mail.send', gen_random_uuid(),
         now() - make_interval(secs => g), now() - make_interval(secs => g)
       FROM generate_series(1, $5::int) AS g
       CROSS JOIN LATERAL (SELECT CASE
         WHEN g % 20 < 12 THEN 'pending' WHEN g % 20 < 14 THEN 'snoozed' WHEN g % 20 < 17 THEN 'sent' WHEN g % 20 < 19 THEN 'rejected' ELSE 'none' END AS review_status) s`,
      [member.id, mailboxes.map((mailbox) => mailbox.id), mailboxes.map((mailbox) => mailbox.address), workflows, itemCount],
    );
    for (const index of indexes) await client.query(index.definition);
    await client.query('VACUUM ANALYZE outbound_messages');
    const { rows: sizes } = await client.query<{ size: string; version: string; shared: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('outbound_messages')) AS size, current_setting('server_version') AS version, current_setting('shared_buffers') AS shared`,
    );
    log(`seeded in ${fixed((performance.now() - seedStarted) / 1000)} s; outbound_messages ${sizes[0].size} with indexes; PostgreSQL ${sizes[0].version}, shared_buffers ${sizes[0].shared}`);

    const shapes: Shape[] = [
      { name: 'first page', query: {} },
      { name: `page at ${deepPage.toLocaleString('en')} (cursor)`, query: {}, depth: deepPage },
      { name: 'mailboxId (1/8)', query: { mailboxId: mailboxes[2].id } },
      { name: 'workflowId (1/10)', query: { workflowId: workflows[3] } },
      { name: 'status=all', query: { status: 'all' } },
    ];

    const cursorAt = async (shape: Shape): Promise<string | undefined> => {
      if (!shape.depth) return undefined;
      const { rows } = await client.query<{ at: Date; id: string }>(
        `SELECT created_at AS at, id FROM outbound_messages WHERE member_id = $1::uuid AND review_status = 'pending' ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
        [member.id, shape.depth - 1],
      );
      return encodeCursor({ at: rows[0].at, id: rows[0].id });
    };

    const request = (url: string) =>
      handleRestRequest(new Request(`http://127.0.0.1${url}`, { headers: { authorization: `Bearer ${routeKey}`, accept: 'application/json', 'x-mailflow-client-ip': '127.0.0.1' } }));

    async function route(shape: Shape, cursor: string | undefined): Promise<{ ids: string[]; pendingCount: number }> {
      const query = new URLSearchParams({ ...shape.query, limit: String(pageLimit), ...(cursor ? { cursor } : {}) });
      const response = await request(`/api/v1/review?${query.toString()}`);
      const body = await response.json();
      if (response.status !== 200) throw new Error(`the review list answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return { ids: (body.items as { id: string }[]).map((item) => item.id), pendingCount: body.pendingCount };
    }

    /** The floor: every statement the route runs (server/domains/review/repo.ts), on bare pg. */
    async function floor(shape: Shape, cursor: string | undefined): Promise<{ ids: string[]; pendingCount: number }> {
      const { rows: keys } = await client.query(apiKeyLookupSql, [tokenHash(floorKey), Math.floor(Date.now() / 1000)]);
      if (keys.length === 0) throw new Error('floor: key lookup failed');
      await client.query(
        `UPDATE outbound_messages SET review_status = 'pending', snooze_until = NULL, updated_at = now() WHERE member_id = $1::uuid AND review_status = 'snoozed' AND snooze_until <= $2`,
        [member.id, new Date()],
      );
      const filter = (values: unknown[], status: string) => {
        const add = (value: unknown) => `$${values.push(value)}`;
        const where = [`member_id = ${add(member.id)}::uuid`, status === 'all' ? `review_status <> 'none'` : `review_status = ${add(status)}`];
        if (shape.query.mailboxId) where.push(`mailbox_id = ${add(shape.query.mailboxId)}::uuid`);
        if (shape.query.workflowId) where.push(`workflow_id = ${add(shape.query.workflowId)}::uuid`);
        return { where, add };
      };
      const pageValues: unknown[] = [];
      const page = filter(pageValues, shape.query.status ?? 'pending');
      const after = decodeCursor(cursor);
      if (after) {
        const at = page.add(after.at);
        page.where.push(`(created_at < ${at} OR (created_at = ${at} AND id < ${page.add(after.id)}::uuid))`);
      }
      const countValues: unknown[] = [];
      const count = filter(countValues, 'pending');
      const [rows, counted] = await Promise.all([
        client.query<{ id: string }>(`SELECT * FROM outbound_messages WHERE ${page.where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${pageLimit + 1}`, pageValues),
        client.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbound_messages WHERE ${count.where.join(' AND ')}`, countValues),
      ]);
      return { ids: rows.rows.slice(0, pageLimit).map((row) => row.id), pendingCount: counted.rows[0].n };
    }

    const cursors = new Map<Shape, string | undefined>();
    for (const shape of shapes) {
      const cursor = await cursorAt(shape);
      cursors.set(shape, cursor);
      const viaRoute = await route(shape, cursor);
      const viaFloor = await floor(shape, cursor);
      if (viaRoute.ids.join() !== viaFloor.ids.join() || viaRoute.pendingCount !== viaFloor.pendingCount) throw new Error(`route and floor disagree on ${shape.name}`);
      if (viaRoute.ids.length !== pageLimit) throw new Error(`${shape.name}: ${viaRoute.ids.length} items, expected a full page`);
    }
    log(`${shapes.length} shapes checked (route and floor answer the same full page and the same pendingCount)`);

    return await measureRouteVsFloor({
      shapes,
      passes: rounds * 4,
      route: (shape) => route(shape, cursors.get(shape)),
      floor: (shape) => floor(shape, cursors.get(shape)),
      targets,
      log,
    });
  } finally {
    await client.end();
    await disconnectDb();
  }
}

// Alone: `npx tsx bench/review-list.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runReviewListBench);
