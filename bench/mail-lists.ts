/**
 * The threads and messages lists on a mirror of 500,000 messages (200,000 threads) in one mailbox
 * (`npx tsx bench/mail-lists.ts`; embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench):
 *
 *   seeded by SQL generate_series (bench/mail-seed.ts: secondary indexes dropped for the load and
 *   rebuilt after it, then VACUUM ANALYZE);
 *   ~20 requests of the webmail's shapes: folders (inbox, all, starred, a sparse personal folder,
 *   trash), filters, deep cursors, `q` common, rare, prefix, `from:`, phrase, everywhere; and the
 *   messages list with and without `q`;
 *
 * each measured through the in-process REST handler (`handleRestRequest`, API key: authentication,
 * rate limit, scope, zod, the service, the envelope; no socket) and, as the floor, as the same SQL
 * run straight on `pg`: every statement the route runs (the key lookup, the member's mailboxes with
 * their folders, the `q` statement, the list statement), built by the same functions. Targets: route p95 <
 * 150 ms, route / floor ≤ 1.3. Prints p50/p95/max for both and their ratio, and each shape's median;
 * PASS/MISS is information only.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { mirrorIndexes, seedMirror } from './mail-seed';
import { fixed, routeFloorTable, spread, table } from './stats';
import { runSectionAlone } from './database';

const messageCount = Number(process.env.BENCH_MAIL_MESSAGES) || 500_000;
const pageLimit = 50;
const targets = { p95Ms: 150, ratio: 1.3 };

interface Shape {
  name: string;
  list: 'threads' | 'messages';
  query: Record<string, string>;
  /** Rows to skip (newest first) before the page: the cursor is the row just before. */
  depth?: number;
}

const shapes: Shape[] = [
  { name: 'inbox', list: 'threads', query: {} },
  { name: 'inbox, page at 20,000', list: 'threads', query: {}, depth: 20_000 },
  { name: 'inbox unread', list: 'threads', query: { filter: 'unread' } },
  { name: 'inbox flagged', list: 'threads', query: { filter: 'flagged' } },
  { name: 'inbox attachments', list: 'threads', query: { filter: 'attachments' } },
  { name: 'all', list: 'threads', query: { folder: 'all' } },
  { name: 'starred', list: 'threads', query: { folder: 'starred' } },
  { name: 'personal folder (2 %)', list: 'threads', query: { folder: 'Receipts' } },
  { name: 'trash', list: 'threads', query: { folder: 'trash' } },
  { name: 'q common word', list: 'threads', query: { q: 'invoice' } },
  { name: 'q common, page at 2,000', list: 'threads', query: { q: 'invoice' }, depth: 2_000 },
  { name: 'q two words', list: 'threads', query: { q: 'invoice meeting' } },
  { name: 'q prefix', list: 'threads', query: { q: 'inv' } },
  { name: 'q rare word', list: 'threads', query: { q: 'zephyr' } },
  { name: 'q from:', list: 'threads', query: { q: 'from:user17' } },
  { name: 'q phrase', list: 'threads', query: { q: '"invoice meeting"' } },
  { name: 'q rare, everywhere', list: 'threads', query: { q: 'zephyr', searchEverywhere: 'true' } },
  { name: 'messages', list: 'messages', query: {} },
  { name: 'messages, page at 100,000', list: 'messages', query: {}, depth: 100_000 },
  { name: 'messages q common', list: 'messages', query: { q: 'invoice' } },
  { name: 'messages q rare', list: 'messages', query: { q: 'zephyr' } },
  { name: 'messages q from:', list: 'messages', query: { q: 'from:user17' } },
];


export interface MailBenchOptions {
  /** A migrated database; the mirror is added to it. */
  databaseUrl: string;
  log: (message: string) => void;
  /** Measured passes over the shapes (route and floor interleaved). */
  rounds?: number;
}

export async function runMailListsBench(options: MailBenchOptions): Promise<{ routeP95: number; floorP95: number }> {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_MAIL_ROUNDS) || 5);
  process.env.DATABASE_URL = options.databaseUrl;
  const { db, disconnectDb } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  const { apiKeyLookupSql } = await import('../server/core/auth/authenticate');
  const { tokenHash } = await import('../server/core/auth/tokens');
  const { encodeCursor, decodeCursor } = await import('../server/core/http/cursor');
  const { createKey } = await import('../server/domains/api-keys/service');
  const { resolveFolder } = await import('../server/domains/mail/folders/resolve');
  const { mailboxScopeStatement } = await import('../server/domains/mail/repo');
  const { threadListStatement } = await import('../server/domains/mail/threads/list-statement');
  const { messageListStatement } = await import('../server/domains/mail/messages/list-statement');
  const { parseSearchQuery } = await import('../server/domains/mail/search/query');
  const { combineSearchQuery, prepareSearch, searchInputsOf, searchQuerySql } = await import('../server/domains/mail/search/sql');
  const { handleRestRequest } = await import('../server/http/rest-handler');
  resetConfigForTests();

  log('');
  log(`mail lists bench: GET /api/v1/threads and GET /api/v1/messages on a mirror of ${messageCount.toLocaleString('en')} messages, limit ${pageLimit}`);

  const created = await db().member.create({
    data: { email: `mail-bench-${randomUUID().slice(0, 8)}@example.test`, name: 'Mail Bench', role: 'member', status: 'active', passwordHash: 'x' },
  });
  const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: created.id, email: created.email, name: created.name, role: created.role, createdAt: created.createdAt } };
  const routeKey = (await createKey(actor, { name: 'mail bench route', scopes: ['messages:read'] }, null)).secret;
  const floorKey = (await createKey(actor, { name: 'mail bench floor', scopes: ['messages:read'] }, null)).secret;
  const mailbox = await db().mailbox.create({ data: { memberId: created.id, provider: 'imap', address: 'bench@example.test' } });

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const seedStarted = performance.now();
    const indexes = await mirrorIndexes(client);
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
    await seedMirror(client, mailbox.id, messageCount);
    for (const index of indexes) await client.query(index.definition);
    await client.query('VACUUM ANALYZE mail_messages');
    await client.query('VACUUM ANALYZE mail_threads');
    const { rows: sizes } = await client.query<{ messages: string; threads: string; version: string; shared: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('mail_messages')) AS messages, pg_size_pretty(pg_total_relation_size('mail_threads')) AS threads,
              current_setting('server_version') AS version, current_setting('shared_buffers') AS shared`,
    );
    log(
      `seeded in ${fixed((performance.now() - seedStarted) / 1000)} s; mail_messages ${sizes[0].messages}, mail_threads ${sizes[0].threads} with indexes; ` +
        `PostgreSQL ${sizes[0].version}, shared_buffers ${sizes[0].shared}`,
    );

    /** The cursor of the row just before the page at `depth`: by SQL, or for a search through the route (pages of 200). */
    const cursorAt = async (shape: Shape): Promise<string | undefined> => {
      if (!shape.depth) return undefined;
      if (!shape.query.q) {
        const text =
          shape.list === 'messages'
            ? 'SELECT received_at AS at, id FROM mail_messages WHERE mailbox_id = $1 ORDER BY received_at DESC, id DESC OFFSET $2 LIMIT 1'
            : `SELECT last_message_at AS at, id FROM mail_threads WHERE mailbox_id = $1 AND folder_keys && '{INBOX}' ORDER BY last_message_at DESC, id DESC OFFSET $2 LIMIT 1`;
        const { rows } = await client.query<{ at: Date; id: string }>(text, [mailbox.id, shape.depth - 1]);
        return encodeCursor({ at: rows[0].at, id: rows[0].id });
      }
      let cursor: string | undefined;
      for (let skipped = 0; skipped < shape.depth; skipped += 200) {
        cursor = (await route(shape, cursor, 200)).nextCursor ?? undefined;
        if (!cursor) break;
      }
      return cursor;
    };

    const pathOf = (shape: Shape, cursor: string | undefined, limit = pageLimit) =>
      `/api/v1/${shape.list}?${new URLSearchParams({ ...shape.query, limit: String(limit), ...(cursor ? { cursor } : {}) }).toString()}`;

    async function route(shape: Shape, cursor: string | undefined, limit = pageLimit): Promise<{ ids: string[]; nextCursor: string | null }> {
      const response = await handleRestRequest(
        new Request(`http://127.0.0.1${pathOf(shape, cursor, limit)}`, {
          headers: { authorization: `Bearer ${routeKey}`, accept: 'application/json', 'x-mailflow-client-ip': '127.0.0.1' },
        }),
      );
      const body = await response.json();
      if (response.status !== 200) throw new Error(`the route answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      const items = (shape.list === 'threads' ? body.threads : body.messages) as { id: string }[];
      return { ids: items.map((item) => item.id), nextCursor: body.nextCursor };
    }

    /** The floor: every statement the route runs, on bare pg, built by the same functions. */
    async function floor(shape: Shape, cursor: string | undefined): Promise<{ ids: string[] }> {
      const { rows: keys } = await client.query(apiKeyLookupSql, [tokenHash(floorKey), Math.floor(Date.now() / 1000)]);
      if (keys.length === 0) throw new Error('floor: key lookup failed');
      const everywhere = shape.query.searchEverywhere === 'true';
      const scope = mailboxScopeStatement(created.id, undefined, shape.list === 'threads' && !everywhere);
      const { rows: boxes } = await client.query<{ id: string; folders?: { key: string; role: string | null }[] }>(scope.text, scope.values);
      const ids = boxes.map((box) => box.id);
      let search = null;
      if (shape.query.q) {
        const terms = parseSearchQuery(shape.query.q);
        const inputs = searchInputsOf(terms);
        const { rows } = await client.query(searchQuerySql, [inputs.prefixes, inputs.words, inputs.negatives]);
        search = prepareSearch(terms, combineSearchQuery(rows[0]));
      }
      const after = decodeCursor(cursor);
      if (shape.list === 'messages') {
        const statement = messageListStatement({ mailboxIds: ids, search, after, take: pageLimit + 1 });
        return { ids: (await client.query<{ id: string }>(statement.text, statement.values)).rows.slice(0, pageLimit).map((row) => row.id) };
      }
      let scopes = ids.map((mailboxId) => ({ mailboxId, folderKeys: null as string[] | null }));
      let flaggedOnly = false;
      if (!everywhere) {
        const folders = boxes.flatMap((box) => (box.folders ?? []).map((folder) => ({ mailboxId: box.id, ...folder })));
        const resolved = resolveFolder(shape.query.folder ?? 'inbox', ids, folders);
        if (!resolved) throw new Error(`floor: unknown folder ${shape.query.folder}`);
        flaggedOnly = resolved.flaggedOnly;
        scopes = [...resolved.keysByMailbox].filter(([, keys]) => keys.length > 0).map(([mailboxId, folderKeys]) => ({ mailboxId, folderKeys }));
      }
      const filter = (shape.query.filter ?? 'all') as 'all' | 'unread' | 'flagged' | 'attachments';
      const statement = threadListStatement({ scopes, flaggedOnly, filter, search, after, take: pageLimit + 1 });
      return { ids: (await client.query<{ id: string }>(statement.text, statement.values)).rows.slice(0, pageLimit).map((row) => row.id) };
    }

    // Correctness first (and a warm-up): route and floor answer the same page, a full one.
    const cursors = new Map<Shape, string | undefined>();
    for (const shape of shapes) {
      const cursor = await cursorAt(shape);
      cursors.set(shape, cursor);
      const [viaRoute, viaFloor] = [await route(shape, cursor), await floor(shape, cursor)];
      if (viaRoute.ids.join() !== viaFloor.ids.join()) throw new Error(`route and floor disagree on ${shape.name}`);
      if (viaRoute.ids.length === 0) throw new Error(`${shape.name}: an empty page measures nothing`);
    }
    log(`${shapes.length} shapes checked (route and floor answer the same page); pages are full except where the folder or the search holds fewer`);

    const routeMs: number[] = [];
    const floorMs: number[] = [];
    const perShape = new Map<string, { route: number[]; floor: number[] }>(shapes.map((shape) => [shape.name, { route: [], floor: [] }]));
    const started = performance.now();
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, shape] of shapes.entries()) {
        const order = (index + round) % 2 === 0 ? (['route', 'floor'] as const) : (['floor', 'route'] as const);
        for (const side of order) {
          const t0 = performance.now();
          await (side === 'route' ? route(shape, cursors.get(shape)) : floor(shape, cursors.get(shape)));
          const ms = performance.now() - t0;
          (side === 'route' ? routeMs : floorMs).push(ms);
          perShape.get(shape.name)![side].push(ms);
        }
      }
    }
    const elapsed = performance.now() - started;
    const { lines, route: r, floor: f } = routeFloorTable(routeMs, floorMs);
    for (const line of lines) log(line);
    log('  median per shape (route / floor, ms):');
    for (const line of table([
      ['  shape', 'route', 'floor', 'ratio'],
      ...shapes.map((shape) => {
        const times = perShape.get(shape.name)!;
        const routeMedian = spread(times.route).p50;
        const floorMedian = spread(times.floor).p50;
        return [`  ${shape.name}`, fixed(routeMedian), fixed(floorMedian), `${fixed(routeMedian / floorMedian, 2)}×`];
      }),
    ]))
      log(line);
    log(`  ${rounds} rounds × ${shapes.length} shapes, one at a time, in ${fixed(elapsed / 1000)} s; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    log(`  ${r.p95 < targets.p95Ms ? 'PASS' : 'MISS'}  route p95 < ${targets.p95Ms} ms: ${fixed(r.p95)} ms`);
    log(`  ${r.p95 / f.p95 <= targets.ratio ? 'PASS' : 'MISS'}  route / floor p95 ≤ ${targets.ratio}: ${fixed(r.p95 / f.p95, 2)}× (p50 ${fixed(r.p50 / f.p50, 2)}×; timing is noisy: information, not an exit code)`);
    return { routeP95: r.p95, floorP95: f.p95 };
  } finally {
    await client.end();
    await disconnectDb();
  }
}

// Alone: `npx tsx bench/mail-lists.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runMailListsBench);
