/**
 * The address book's list at 100,000 entries (part of `npm run bench`, BENCH_CONTACTS=0 skips it; alone:
 * `npx tsx bench/contacts.ts`, embedded PostgreSQL or BENCH_DATABASE_URL):
 *
 *   seeded by SQL generate_series: BENCH_CONTACTS_ENTRIES (100,000) entries, 98 % addresses over 2,000 domains and
 *   2 % domains, every one with a shared card (display names from a list of 500 company names, notes on 10 %), 20 %
 *   with a card of the bench member, 5 % with a card for one of the member's 4 mailboxes, and another member's cards
 *   on 20 % (which must never count); secondary indexes dropped for the load and rebuilt after it, VACUUM ANALYZE;
 *   shapes: `q` + `mailboxId` (the mailbox view), `q` of a company name (~0.2 % of the entries), of part of an
 *   address (~0.1 %), of a word of the notes (~10 %), of a domain (~0.05 %), and the same with `layer=member`;
 *
 * each through the in-process REST handler (`handleRestRequest`, API key: authentication, rate limit, scope, zod,
 * the service, the envelope; no socket) and, as the floor, the same SQL on bare `pg`: every statement the route runs
 * (the key lookup, the mailbox's ownership, the page from repo-list.ts's own `listEntryPage` handed a bare-pg
 * runner, so the very statements and fast-path decisions of the route, then the page's entries, their domains' entries, the three defaults, the cards and the signatures,
 * in the same parallel groups over a pool of the same size).
 * Targets: route p95 < 100 ms, route / floor ≤ 1.5 (PASS/MISS, information only).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { runSectionAlone } from './database';
import { fixed, measureRouteVsFloor, type RouteFloorResult } from './stats';

const entryCount = Number(process.env.BENCH_CONTACTS_ENTRIES) || 100_000;
const domainCount = 2_000;
const mailboxCount = 4;
const pageLimit = 50;
const targets = { p95Ms: 100, ratio: 1.5 };

interface Shape {
  name: string;
  query: Record<string, string>;
}

export async function runContactsBench(options: { databaseUrl: string; log: (message: string) => void; rounds?: number }): Promise<RouteFloorResult> {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_CONTACTS_ROUNDS) || 5);
  process.env.DATABASE_URL = options.databaseUrl;
  const { db, disconnectDb } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  const { apiKeyLookupSql } = await import('../server/core/auth/authenticate');
  const { tokenHash } = await import('../server/core/auth/tokens');
  const { createKey } = await import('../server/domains/api-keys/service');
  const { listEntryPage, matchCountSql, manyMatches, rankedEntriesSql } = await import('../server/domains/contacts/repo-list');
  type RunSql = import('../server/domains/contacts/repo-list').RunSql;
  const { domainChain, domainOfAddress } = await import('../server/domains/contacts/normalise');
  const { handleRestRequest } = await import('../server/http/rest-handler');
  resetConfigForTests();

  log('');
  log(`address book: GET /api/v1/contacts with q and a mailbox view at ${entryCount.toLocaleString('en')} entries, limit ${pageLimit}`);

  const newMember = (name: string) =>
    db().member.create({ data: { email: `${name}-${randomUUID().slice(0, 8)}@example.test`, name, role: 'member', status: 'active', passwordHash: 'x' } });
  const member = await newMember('contacts-bench');
  const other = await newMember('contacts-bench-other');
  const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: member.createdAt } };
  const routeKey = (await createKey(actor, { name: 'contacts bench route', scopes: ['contacts:read'] }, null)).secret;
  const floorKey = (await createKey(actor, { name: 'contacts bench floor', scopes: ['contacts:read'] }, null)).secret;
  const mailboxes: string[] = [];
  for (let index = 0; index < mailboxCount; index += 1) {
    mailboxes.push((await db().mailbox.create({ data: { memberId: member.id, provider: 'imap', address: `contacts-bench-${index}-${randomUUID().slice(0, 6)}@example.test`, status: 'active' } })).id);
  }

  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  // The route's queries of one parallel group run on several pooled connections: so do the floor's.
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
  const tables = ['contact_entries', 'contact_shared_cards', 'contact_member_cards', 'contact_mailbox_cards'];
  try {
    const seedStarted = performance.now();
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = ANY($1) AND indexname NOT LIKE '%_pkey'`,
      [tables],
    );
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const index of indexes) await client.query(`DROP INDEX ${client.escapeIdentifier(index.name)}`);
    // Entries: g % 50 = 0 is a domain (2 %), the others addresses over 2,000 domains.
    await client.query(
      `INSERT INTO contact_entries (id, kind, value, created_at)
       SELECT gen_random_uuid(),
         CASE WHEN g % 50 = 0 THEN 'domain' ELSE 'contact' END,
         CASE WHEN g % 50 = 0 THEN 'sub' || g || '.company' || (g % ${domainCount}) || '.example'
              ELSE 'person' || g || '@company' || (g % ${domainCount}) || '.example' END,
         now() - make_interval(secs => g)
       FROM generate_series(1, $1::int) AS g`,
      [entryCount],
    );
    // Every entry a shared card, updated one second apart; 500 company names; notes on 10 %.
    await client.query(
      `INSERT INTO contact_shared_cards (id, entry_id, display_name, language, status, org_notes, updated_at)
       SELECT gen_random_uuid(), e.id, 'Company ' || (row_number() OVER (ORDER BY e.value) % 500) || ' Contact',
         CASE WHEN random() < 0.5 THEN 'fr' ELSE 'en' END,
         (ARRAY['customer','prospect','supplier','partner','vip','blocked'])[1 + floor(random() * 6)::int],
         CASE WHEN random() < 0.1 THEN 'Quarterly renewal discussed with the purchasing team' END,
         now() - make_interval(secs => floor(random() * 10000000)::int)
       FROM contact_entries e`,
    );
    // The member's cards on 20 %, their mailbox cards on 5 %, another member's cards on 20 %.
    await client.query(
      `INSERT INTO contact_member_cards (id, entry_id, member_id, formality, tone, personal_notes, updated_at)
       SELECT gen_random_uuid(), e.id, $1::uuid, 'vous', 'formal', CASE WHEN random() < 0.3 THEN 'Prefers calls in the morning' END,
         now() - make_interval(secs => floor(random() * 10000000)::int)
       FROM contact_entries e WHERE random() < 0.2`,
      [member.id],
    );
    await client.query(
      `INSERT INTO contact_mailbox_cards (id, entry_id, member_id, mailbox_id, formality, tone, personal_notes, updated_at)
       SELECT gen_random_uuid(), e.id, $1::uuid, ($2::uuid[])[1 + floor(random() * ${mailboxCount})::int], 'tu', 'casual',
         CASE WHEN random() < 0.3 THEN 'Met at the trade fair' END, now() - make_interval(secs => floor(random() * 10000000)::int)
       FROM contact_entries e WHERE random() < 0.05`,
      [member.id, mailboxes],
    );
    await client.query(
      `INSERT INTO contact_member_cards (id, entry_id, member_id, tone, personal_notes, updated_at)
       SELECT gen_random_uuid(), e.id, $1::uuid, 'casual', 'Company 7 person of another member', now() - make_interval(secs => floor(random() * 1000)::int)
       FROM contact_entries e WHERE random() < 0.2`,
      [other.id],
    );
    for (const index of indexes) await client.query(index.definition);
    for (const table of tables) await client.query(`VACUUM ANALYZE ${table}`);
    const { rows: sizes } = await client.query<{ size: string; version: string; shared: string }>(
      `SELECT pg_size_pretty(${tables.map((table) => `pg_total_relation_size('${table}')`).join(' + ')}) AS size, current_setting('server_version') AS version, current_setting('shared_buffers') AS shared`,
    );
    log(`seeded in ${fixed((performance.now() - seedStarted) / 1000)} s; the address book's tables ${sizes[0]!.size} with indexes; PostgreSQL ${sizes[0]!.version}, shared_buffers ${sizes[0]!.shared}`);

    const mailboxId = mailboxes[1]!;
    const shapes: Shape[] = [
      { name: 'q company name + mailboxId', query: { q: 'company 42 contact', mailboxId } },
      { name: 'q part of an address + mailboxId', query: { q: 'person1234', mailboxId } },
      { name: 'q word of notes (~10 %) + mailboxId', query: { q: 'renewal', mailboxId } },
      { name: 'q domain + mailboxId', query: { q: 'company1717.example', mailboxId } },
      { name: 'q + mailboxId, layer=member', query: { q: 'company', mailboxId, layer: 'member' } },
    ];

    const request = (url: string) =>
      handleRestRequest(new Request(`http://127.0.0.1${url}`, { headers: { authorization: `Bearer ${routeKey}`, accept: 'application/json', 'x-mailflow-client-ip': '127.0.0.1' } }));

    async function route(shape: Shape): Promise<string[]> {
      const query = new URLSearchParams({ ...shape.query, limit: String(pageLimit) });
      const response = await request(`/api/v1/contacts?${query.toString()}`);
      const body = await response.json();
      if (response.status !== 200) throw new Error(`the contacts list answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return (body.items as { kind: string; value: string }[]).map((item) => `${item.kind}:${item.value}`);
    }

    const onBarePg: RunSql = async <T>(statement: { text: string; values: unknown[] }) => (await client.query(statement.text, statement.values)).rows as T[];

    /** The floor: every statement the route runs (list.ts, repo-list.ts, resolution.ts), on bare pg. */
    async function floor(shape: Shape): Promise<string[]> {
      const { rows: keys } = await client.query(apiKeyLookupSql, [tokenHash(floorKey), Math.floor(Date.now() / 1000)]);
      if (keys.length === 0) throw new Error('floor: key lookup failed');
      const { rows: owned } = await client.query('SELECT id FROM mailboxes WHERE id = $1::uuid AND member_id = $2::uuid LIMIT 1', [shape.query.mailboxId, member.id]);
      const box = owned[0]!.id as string;
      // The page: repo-list.ts's own statements and decisions (fast path, then the full statement), run on bare pg.
      const page = await listEntryPage(
        { memberId: member.id, q: shape.query.q!.trim().toLowerCase(), layer: (shape.query.layer ?? 'all') as 'all', mailboxId: box, after: null, limit: pageLimit },
        onBarePg,
      );
      const ids = page.slice(0, pageLimit).map((row) => row.id);
      const { rows: entries } = await client.query<{ id: string; kind: string; value: string }>('SELECT id, kind, value FROM contact_entries WHERE id = ANY($1::uuid[])', [ids]);
      const byId = new Map(entries.map((entry) => [entry.id, entry]));
      const ordered = ids.map((id) => byId.get(id)!).filter(Boolean);
      const domains = [
        ...new Set(ordered.flatMap((entry) => domainChain(entry.kind === 'domain' ? entry.value : domainOfAddress(entry.value)))),
        ...ordered.filter((entry) => entry.kind === 'domain').map((entry) => entry.value),
      ];
      const contacts = ordered.filter((entry) => entry.kind === 'contact').map((entry) => entry.value);
      const [found] = await Promise.all([
        pool.query<{ id: string }>(
          `SELECT id, kind, value FROM contact_entries WHERE (kind = 'contact' AND value = ANY($1::text[])) OR (kind = 'domain' AND value = ANY($2::text[]))`,
          [contacts, [...new Set(domains)]],
        ),
        pool.query(`SELECT * FROM contact_org_defaults WHERE id = 'organisation' LIMIT 1`),
        pool.query('SELECT * FROM contact_member_defaults WHERE member_id = $1::uuid LIMIT 1', [member.id]),
        pool.query('SELECT * FROM contact_mailbox_defaults WHERE mailbox_id = $1::uuid LIMIT 1', [box]),
      ]);
      const entryIds = found.rows.map((row) => row.id);
      const [, memberCards, mailboxCards] = await Promise.all([
        pool.query('SELECT * FROM contact_shared_cards WHERE entry_id = ANY($1::uuid[])', [entryIds]),
        pool.query('SELECT * FROM contact_member_cards WHERE entry_id = ANY($1::uuid[]) AND member_id = $2::uuid', [entryIds, member.id]),
        pool.query('SELECT * FROM contact_mailbox_cards WHERE entry_id = ANY($1::uuid[]) AND member_id = $2::uuid AND mailbox_id = $3::uuid ORDER BY updated_at DESC, id DESC', [
          entryIds,
          member.id,
          box,
        ]),
      ]);
      const signatureIds = [...memberCards.rows, ...mailboxCards.rows].map((row) => row.signature_id).filter(Boolean);
      if (signatureIds.length > 0) await pool.query('SELECT id, text FROM contact_signatures WHERE id = ANY($1::uuid[]) AND member_id = $2::uuid', [signatureIds, member.id]);
      return ordered.map((entry) => `${entry.kind}:${entry.value}`);
    }

    for (const shape of shapes) {
      const viaRoute = await route(shape);
      const viaFloor = await floor(shape);
      if (viaRoute.join() !== viaFloor.join()) throw new Error(`route and floor disagree on ${shape.name}`);
      if (viaRoute.length === 0) throw new Error(`${shape.name}: no entry matched`);
      log(`  ${shape.name}: ${viaRoute.length} entries on the page`);
    }
    log(`${shapes.length} shapes checked (route and floor answer the same page)`);
    if (process.env.BENCH_CONTACTS_EXPLAIN === '1') {
      for (const shape of shapes) {
        const statement = rankedEntriesSql({ memberId: member.id, q: shape.query.q!.toLowerCase(), layer: (shape.query.layer ?? 'all') as 'all', mailboxId, after: null, limit: pageLimit });
        const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
        log(`EXPLAIN ${shape.name}:\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
        const count = matchCountSql(shape.query.q!.toLowerCase(), member.id, manyMatches);
        const { rows: counted } = await client.query(`EXPLAIN (ANALYZE) ${count.text}`, count.values);
        log(`EXPLAIN match count ${shape.name}:\n${counted.map((row) => row['QUERY PLAN']).join('\n')}`);
      }
    }

    return await measureRouteVsFloor({ shapes, passes: rounds * 4, route, floor, targets, log });
  } finally {
    await pool.end();
    await client.end();
    await disconnectDb();
  }
}

// Alone: `npx tsx bench/contacts.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runContactsBench);
