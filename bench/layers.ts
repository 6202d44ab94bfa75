/**
 * `npx tsx bench/layers.ts`: where the time of GET /api/v1/auth/me goes, layer by layer, in ONE
 * process without HTTP (an investigation aid next to `npm run bench`, not part of it):
 *
 *   pg        the route's one statement, prepared, over a pg.Pool (what the floor server and the app run)
 *   prisma    the same statement through Prisma ($queryRawUnsafe), for comparison
 *   service   resolveActor(headers) + currentMember(actor): the route's code, no tRPC
 *   rest      handleRestRequest(new Request(...)): tRPC + our REST dispatch and adapter, no Next
 *   direct    answerRestRequest as the web server's direct path calls it for a bodiless request (no Request/Response)
 *
 * Each runs `BENCH_CONCURRENCY` (32) calls in flight for BENCH_LAYER_SECONDS (5) after 1 s warm-up
 * and reports calls/s and the process CPU time per call (user+system, so scheduler noise from other
 * processes does not inflate it). Same database setup as the bench (embedded, or BENCH_DATABASE_URL).
 */
import pg from 'pg';
import { openBenchDatabase, migrate } from './database';

const concurrency = Number(process.env.BENCH_CONCURRENCY) || 32;
const seconds = Number(process.env.BENCH_LAYER_SECONDS) || 5;
const keyCount = Number(process.env.BENCH_KEYS) || 500;
const poolSize = Number(process.env.DATABASE_POOL_SIZE) || 10;

/** BENCH_LAYERS=rest,service measures only those (e.g. under --cpu-prof); all by default. */
const only = process.env.BENCH_LAYERS ? new Set(process.env.BENCH_LAYERS.split(',')) : null;

async function measure(name: string, call: (index: number) => Promise<unknown>): Promise<void> {
  if (only && !only.has(name)) return;
  let index = 0;
  const run = async (until: number, counter: { calls: number }) => {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          await call(index++);
          counter.calls += 1;
        }
      }),
    );
  };
  await run(performance.now() + 1_000, { calls: 0 });
  const counter = { calls: 0 };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await run(started + seconds * 1_000, counter);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerCall = (cpu.user + cpu.system) / 1000 / counter.calls;
  console.log(
    `${name.padEnd(8)} ${String(Math.round(counter.calls / elapsed)).padStart(6)} calls/s   ` +
      `${cpuMsPerCall.toFixed(3)} ms CPU per call in this process (${((cpu.user + cpu.system) / 1e4 / elapsed).toFixed(0)}% of one core)`,
  );
}

const database = await openBenchDatabase(() => {});
try {
  await migrate(database.url);
  process.env.DATABASE_URL = database.url;
  (process.env as Record<string, string>).NODE_ENV = 'production';
  process.env.LOG_LEVEL = 'warn';
  process.env.DATABASE_POOL_SIZE = String(poolSize);
  const { createFixtures } = await import('./fixtures');
  const fixtures = await createFixtures(keyCount);
  const { apiKeyLookupWithFiguresStatement, resolveActor } = await import('../server/core/auth/authenticate');
  const { tokenHash } = await import('../server/core/auth/tokens');
  const { db } = await import('../server/core/db');
  const { currentMember } = await import('../server/domains/auth/service');
  const { answerRestRequest, handleRestRequest } = await import('../server/http/rest-handler');
  const secretOf = (index: number) => fixtures.secrets[index % fixtures.secrets.length];
  const now = () => Math.floor(Date.now() / 1000);

  console.log(`layers of GET /api/v1/auth/me, ${concurrency} in flight, ${seconds} s each, pool ${poolSize}, ${keyCount} keys`);
  const pool = new pg.Pool({ connectionString: database.url, max: poolSize });
  await measure('pg', async (index) => {
    const { rows } = await pool.query({ ...apiKeyLookupWithFiguresStatement, values: [tokenHash(secretOf(index)), now()] });
    if (!rows[0]) throw new Error('key not found');
  });
  await pool.end();

  await measure('prisma', async (index) => {
    const rows = await db().$queryRawUnsafe<{ member_id: string }[]>(apiKeyLookupWithFiguresStatement.text, tokenHash(secretOf(index)), now());
    if (!rows[0]) throw new Error('key not found');
  });

  await measure('service', async (index) => {
    const actor = await resolveActor(new Headers({ authorization: `Bearer ${secretOf(index)}` }), { figures: true });
    if (actor.kind === 'anonymous') throw new Error('anonymous');
    await currentMember(actor);
  });

  await measure('rest', async (index) => {
    const response = await handleRestRequest(
      new Request('http://127.0.0.1/api/v1/auth/me', { headers: { authorization: `Bearer ${secretOf(index)}`, accept: 'application/json' } }),
    );
    if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
    await response.text();
  });

  // What the web server's direct path runs for a bodiless request (server/http/rest-direct.ts), up to the answer's text.
  const url = new URL('http://localhost/api/v1/auth/me');
  await measure('direct', async (index) => {
    const headers = { authorization: `Bearer ${secretOf(index)}`, accept: 'application/json' } as Record<string, string>;
    const outcome = await answerRestRequest({ method: 'GET', url, headers: { get: (name) => headers[name] ?? null, has: (name) => name in headers }, bodyText: async () => '' });
    if (outcome.kind !== 'data') throw new Error(`status ${outcome.response.status}: ${await outcome.response.text()}`);
    JSON.stringify(outcome.data);
  });
  const { disconnectDb } = await import('../server/core/db');
  await disconnectDb();
} finally {
  await database.dispose();
}
process.exit(0);
