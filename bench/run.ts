/**
 * `npm run bench`: throughput and latency of `GET /api/v1/auth/me` authenticated by API key,
 * against the production build, next to two references measured in the same run:
 *
 *   ceiling  bare node:http returning the same JSON body (what Node's HTTP stack allows here)
 *   floor    bare node:http + pg.Pool running the route's one statement (what the database allows)
 *
 * plus the database writes one request causes and the CPU time one request costs in each process.
 * Then a second section, bench/tables-rows.ts: the rows query of a shared table at its limits, and the
 * mail sections: bench/mime-ingest.ts (ingest vs bare mailparser) and bench/mail-sync.ts (initial
 * sync from a local Dovecot vs a bare imapflow fetch, new-mail latency with IDLE), bench/mail-lists.ts (threads
 * and messages lists on 500,000 messages vs the same SQL on bare pg) and bench/sanitize.ts (bodyHtmlSafe in the
 * worker pool vs bare DOMPurify, and the event loop meanwhile); BENCH_MAIL=0 skips them. Last, bench/engine.ts: the
 * workflow engine (runs per second vs graphile-worker alone, per-step overhead, webhook-to-first-step latency, the
 * executions list and detail at 1,000,000 executions); BENCH_ENGINE=0 skips it. Then bench/review-list.ts: the morning
 * review queue at 100,000 outbound messages vs the same SQL on bare pg; BENCH_REVIEW=0 skips it. Then bench/contacts.ts: the
 * address book's list with q and a mailbox view at 100,000 entries vs the same SQL on bare pg; BENCH_CONTACTS=0 skips it.
 * Then bench/send.ts: the
 * send pipeline's sends per second vs bare nodemailer to the same local SMTP peer; BENCH_SEND=0 skips it. Then
 * bench/http-node-client.ts: the HTTP node's client against undici's bare request, CPU per call; BENCH_HTTP_CLIENT=0
 * skips it. Then bench/ai-overhead.ts: an ai.classify step's overhead over the bare AI SDK call; BENCH_AI=0 skips it. Last,
 * bench/dashboard.ts: the dashboard's three routes at 1,000,000 executions, 500,000 journal entries and 200,000 AI usage
 * rows (over a year, then all in one month) vs the same SQL on bare pg; BENCH_DASHBOARD=0 skips it.
 * See bench/README.md for the method and the knobs. Timing targets are printed as PASS/MISS and
 * never fail the process: machines are noisy.
 */
// Node types' `.node.ts` modules, which tsx alone does not find (see the file): before any server module.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureProductionBuild } from './build';
import { addCpu, backgroundShare, cpuBetween, othersShare, sampleCpu, type CpuUse } from './cpu';
import { openBenchDatabase, migrate, type BenchDatabase } from './database';
import { addDeltas, DbObserver, settle, sumWrites, type DbDelta, type DbSnapshot } from './db-stats';
import { buildGetRequest, getOnce } from './http-client';
import { closedLoop, mergeLoads, openLoop, Rotation, type LoadResult } from './load';
import { startServer, stopAll, type ChildServer } from './processes';
import { describeCounts, nonOk, summarise } from './stats';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const routePath = '/api/v1/auth/me';

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const settings = {
  keys: intEnv('BENCH_KEYS', 500),
  concurrency: intEnv('BENCH_CONCURRENCY', 32),
  warmupMs: intEnv('BENCH_WARMUP_SECONDS', 2) * 1000,
  durationMs: intEnv('BENCH_DURATION_SECONDS', 8) * 1000,
  openRate: intEnv('BENCH_OPEN_RATE', 200),
  openDurationMs: intEnv('BENCH_OPEN_SECONDS', 10) * 1000,
  poolSize: intEnv('DATABASE_POOL_SIZE', 10),
  rateLimit: intEnv('API_KEY_RATE_LIMIT', 600),
  rounds: intEnv('BENCH_ROUNDS', 2),
};

/**
 * Whether a section after the first runs: BENCH_<NAME>=0 skips it, and BENCH_ONLY=auth skips all of them, so that the
 * `GET /api/v1/auth/me` section runs alone with one setting.
 */
function sectionOn(name: string): boolean {
  if (process.env.BENCH_ONLY === 'auth') return false;
  return process.env[`BENCH_${name}`] !== '0';
}

const targets = { throughputRatio: 0.8, openLoopP99Ms: 50 };

const log = (message: string) => console.log(message);
/** One Node process with tsx's loader (the tsx CLI would put a relay process in between) and the `.node` resolve hook. */
const tsxArgs = (entry: string, ...rest: string[]) => ['--import', 'tsx', entry, ...rest];

// ---------------------------------------------------------------------------------------------
// Cleanup: children first (they hold database connections), then the database.

let database: BenchDatabase | null = null;
let observer: DbObserver | null = null;
let cleaning: Promise<void> | null = null;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAll().catch((error) => console.error('stopping servers:', error));
    await observer?.close().catch(() => {});
    await database?.dispose().catch((error) => console.error('removing the database:', error));
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.log(`\n${signal}: stopping servers and removing the temporary database…`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------

type Target = 'ceiling' | 'floor' | 'app';
type Mode = 'closed' | 'open';

interface PhaseResult {
  target: Target;
  mode: Mode;
  load: LoadResult;
  cpu: CpuUse;
  writes?: DbDelta;
  /** Whether every pooled backend had published its counters when the writes were read. */
  countsComplete?: boolean;
  /** Most last_used_at writes allowed: keys used × clock minutes touched (one per key per minute). */
  lastUsedBound: number;
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

function table(rows: string[][], align: string): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (align[column] === 'l' ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const minuteOf = (epochMs: number) => Math.floor(epochMs / 60_000);
const modeLabel = (mode: Mode) => (mode === 'closed' ? `closed c=${settings.concurrency}` : `open ${settings.openRate}/s`);

async function main(): Promise<void> {
  const startedAt = Date.now();
  log(`mailflow bench: GET ${routePath} by API key (Authorization: Bearer mk_…), production build`);
  log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  log(`other processes were using ${fixed(100 * (await backgroundShare()), 0)}% of the machine's CPU just before the run`);
  log(
    `settings: ${settings.keys} API keys per target (floor and app each their own), closed loop ${settings.concurrency} in flight for ${settings.durationMs / 1000} s per target in ${settings.rounds} interleaved rounds, ` +
      `open loop ${settings.openRate} req/s for ${settings.openDurationMs / 1000} s, pool ${settings.poolSize} (DATABASE_POOL_SIZE)`,
  );

  log(`production build: ${await ensureProductionBuild(root, log)}`);

  database = await openBenchDatabase(() => {});
  log(`database: ${database.description}`);
  await migrate(database.url);
  // The server modules read DATABASE_URL lazily: set it before the first db() call.
  process.env.DATABASE_URL = database.url;
  const { createFixtures } = await import('./fixtures');
  const setupStarted = Date.now();
  // Separate keys for floor and app: each pays its own last_used_at writes (once a minute per key).
  const fixtures = await createFixtures(settings.keys * 2);
  const keySets = { floor: fixtures.secrets.slice(0, settings.keys), app: fixtures.secrets.slice(settings.keys) };
  log(`fixtures: 1 member, ${fixtures.secrets.length} API keys via createKey() in ${fixed((Date.now() - setupStarted) / 1000, 1)} s`);

  const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: database!.url,
      DATABASE_POOL_SIZE: String(settings.poolSize),
      API_KEY_RATE_LIMIT: String(settings.rateLimit),
      NEXT_TELEMETRY_DISABLED: '1',
      ...extra,
    };
    delete env.BENCH_DATABASE_URL;
    return env;
  };

  const { findFreePort } = await import('../server/core/free-port');
  const webPort = await findFreePort();
  // e.g. BENCH_WEB_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the web process (BENCH_FLOOR_NODE_ARGS: the floor's).
  const nodeArgsOf = (name: string) => (process.env[name] ?? '').split(/\s+/).filter(Boolean);
  const webNodeArgs = nodeArgsOf('BENCH_WEB_NODE_ARGS');
  const [app, floor] = await Promise.all([
    startServer({
      name: 'app',
      command: process.execPath,
      args: [...webNodeArgs, ...tsxArgs('server/http/main.ts')],
      cwd: root,
      env: childEnv({ PORT: String(webPort) }),
      readyTimeoutMs: 120_000,
    }),
    startServer({
      name: 'floor',
      command: process.execPath,
      args: [...nodeArgsOf('BENCH_FLOOR_NODE_ARGS'), ...tsxArgs('bench/reference-server.ts', 'floor')],
      cwd: root,
      env: childEnv({}),
    }),
  ]);

  const requestsFor = (server: ChildServer, secrets: string[]) =>
    secrets.map((secret) =>
      buildGetRequest(`127.0.0.1:${server.port}`, routePath, { Authorization: `Bearer ${secret}`, Accept: 'application/json' }),
    );
  const appRequests = requestsFor(app, keySets.app);
  const floorRequests = requestsFor(floor, keySets.floor);

  const appAnswer = await getOnce(app.port, appRequests[0]);
  if (appAnswer.status !== 200) throw new Error(`the app answered ${appAnswer.status} to a valid key: ${appAnswer.body.slice(0, 300)}`);
  const floorAnswer = await getOnce(floor.port, floorRequests[1]);
  if (floorAnswer.status !== 200) throw new Error(`the floor server answered ${floorAnswer.status}: ${floorAnswer.body.slice(0, 300)}`);

  const ceiling = await startServer({
    name: 'ceiling',
    command: process.execPath,
    args: tsxArgs('bench/reference-server.ts', 'ceiling'),
    cwd: root,
    env: childEnv({ BENCH_BODY: appAnswer.body }),
  });
  const ceilingRequests = requestsFor(ceiling, keySets.app);
  const ceilingAnswer = await getOnce(ceiling.port, ceilingRequests[2]);
  const sameBody = floorAnswer.body === appAnswer.body && ceilingAnswer.body === appAnswer.body;
  log(`servers: app ${app.url} (pid ${app.pid}), floor ${floor.url} (pid ${floor.pid}), ceiling ${ceiling.url} (pid ${ceiling.pid})`);
  log(`response body (${Buffer.byteLength(appAnswer.body)} bytes) identical across app, floor and ceiling: ${sameBody ? 'yes' : 'NO'}`);
  if (!sameBody) log(`  app:   ${appAnswer.body}\n  floor: ${floorAnswer.body}`);

  const rotations = { ceiling: new Rotation(ceilingRequests), floor: new Rotation(floorRequests), app: new Rotation(appRequests) };
  const servers = { ceiling, floor, app };

  observer = await DbObserver.open(database.url);
  const postmasterPid = await observer.postmasterPid();
  // Publish whatever the checks above left pending, so the first delta starts clean.
  await Promise.all([settle(app.port, settings.poolSize), settle(floor.port, settings.poolSize)]);
  let snapshot: DbSnapshot = await observer.snapshot();

  log('');
  const results: PhaseResult[] = [];
  /** One slice of load on one target; with database accounting for floor and app. */
  const runSlice = async (target: Target, mode: Mode, warmupMs: number, durationMs: number): Promise<PhaseResult> => {
    const server = servers[target];
    const sliceStart = Date.now();
    const cpuBefore = sampleCpu(server.pid, postmasterPid);
    const load =
      mode === 'closed'
        ? await closedLoop({ port: server.port, rotation: rotations[target], concurrency: settings.concurrency, warmupMs, durationMs })
        : await openLoop({ port: server.port, rotation: rotations[target], ratePerSecond: settings.openRate, durationMs });
    const cpu = cpuBetween(cpuBefore, sampleCpu(server.pid, postmasterPid));
    // last_used_at bound: one write per key per clock minute the slice touched.
    const lastUsedBound = Math.min(settings.keys, load.total) * (minuteOf(Date.now()) - minuteOf(sliceStart) + 1);
    if (target === 'ceiling') return { target, mode, load, cpu, lastUsedBound };
    await settle(server.port, settings.poolSize);
    const { snapshot: after, complete } = await observer!.snapshotWhenComplete(snapshot, load.totalStatuses.get('200') ?? 0);
    const writes = await observer!.delta(snapshot, after);
    snapshot = after;
    return { target, mode, load, cpu, writes, countsComplete: complete, lastUsedBound };
  };
  const report = (result: PhaseResult) => {
    const summary = summarise(result.load.latencies);
    log(
      `${result.target.padEnd(7)} ${modeLabel(result.mode).padEnd(12)} ${fixed(result.load.rps, 0).padStart(6)} req/s  ` +
        `p50 ${fixed(summary.p50, 2).padStart(7)} ms  p99 ${fixed(summary.p99, 2).padStart(7)} ms  (${fixed(result.cpu.server / result.load.total, 2)} ms CPU/req)`,
    );
  };

  // Closed loop in interleaved rounds (ceiling, floor, app, ceiling, floor, app, …): on a shared
  // machine the background load changes over time, and interleaving spreads it over all three.
  const slices = new Map<Target, PhaseResult[]>();
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const target of ['ceiling', 'floor', 'app'] as const) {
      const slice = await runSlice(target, 'closed', round === 0 ? settings.warmupMs : 500, settings.durationMs / settings.rounds);
      process.stdout.write(`round ${round + 1}/${settings.rounds} `);
      report(slice);
      slices.set(target, [...(slices.get(target) ?? []), slice]);
    }
  }
  for (const target of ['ceiling', 'floor', 'app'] as const) {
    const parts = slices.get(target)!;
    results.push({
      target,
      mode: 'closed',
      load: mergeLoads(parts.map((part) => part.load)),
      cpu: parts.map((part) => part.cpu).reduce(addCpu),
      writes: target === 'ceiling' ? undefined : parts.map((part) => part.writes!).reduce(addDeltas),
      countsComplete: parts.every((part) => part.countsComplete !== false),
      lastUsedBound: parts.reduce((sum, part) => sum + part.lastUsedBound, 0),
    });
  }
  for (const target of ['ceiling', 'floor', 'app'] as const) {
    const result = await runSlice(target, 'open', 0, settings.openDurationMs);
    process.stdout.write('open loop ');
    report(result);
    results.push(result);
  }

  // Breakdown: the app's CPU per request with layers taken away (same process, no database writes).
  const breakdown: { label: string; cpuMs: number; rps: number; statuses: string }[] = [];
  if (process.env.BENCH_BREAKDOWN !== '0') {
    const probes = [
      { label: 'GET /healthz: API entry + plain route pipeline (no Next.js) + a trivial handler', path: '/healthz', headers: {} },
      { label: `GET ${routePath} without credential (401): + REST dispatch (server/http/rest-dispatch.ts), tRPC`, path: routePath, headers: {} },
    ];
    for (const probe of probes) {
      process.stdout.write(`breakdown app     ${probe.path.padEnd(17)} `);
      const request = buildGetRequest(`127.0.0.1:${app.port}`, probe.path, { Accept: 'application/json', ...probe.headers });
      const before = sampleCpu(app.pid, null);
      const load = await closedLoop({ port: app.port, rotation: new Rotation([request]), concurrency: settings.concurrency, warmupMs: 1_000, durationMs: 4_000 });
      const cpu = cpuBetween(before, sampleCpu(app.pid, null));
      log(`${fixed(load.rps, 0).padStart(6)} req/s  ${fixed(cpu.server / load.total, 3)} ms CPU/req  (${describeCounts(load.totalStatuses)})`);
      breakdown.push({ label: probe.label, cpuMs: cpu.server / load.total, rps: load.rps, statuses: describeCounts(load.totalStatuses) });
    }
  }

  // ------------------------------------------------------------------------------------------
  // Report.
  const find = (target: Target, mode: Mode) => results.find((r) => r.target === target && r.mode === mode)!;
  const floorRps = find('floor', 'closed').load.rps;
  const labels: Record<Target, string> = {
    ceiling: 'ceiling: node:http, constant body',
    floor: 'floor: node:http + pg, same statement',
    app: 'app: production build',
  };

  log('');
  log(
    `GET ${routePath}: closed loop ${settings.concurrency} in flight, ${settings.durationMs / 1000} s measured per target (${settings.rounds} interleaved rounds, ${settings.warmupMs / 1000} s warm-up first); ` +
      `open loop ${settings.openRate} req/s for ${settings.openDurationMs / 1000} s, latency from the scheduled send time.`,
  );
  log('CPU ms/req: CPU time of the server process and of PostgreSQL (all backends) per request; "others" = CPU share other processes took.');
  const rows: string[][] = [
    ['target', 'load', 'requests', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-200', 'vs floor', 'server CPU', 'pg CPU', 'others'],
  ];
  for (const result of results) {
    const summary = summarise(result.load.latencies);
    const requests = result.load.total;
    rows.push([
      labels[result.target],
      modeLabel(result.mode),
      String(result.load.completed),
      fixed(result.load.rps, 0),
      fixed(summary.p50, 2),
      fixed(summary.p90, 2),
      fixed(summary.p99, 2),
      fixed(summary.max, 1),
      String(nonOk(result.load.totalStatuses)),
      result.mode === 'closed' ? `${fixed(result.load.rps / floorRps, 2)}×` : '',
      fixed(result.cpu.server / requests, 3),
      result.target === 'ceiling' ? '' : fixed(result.cpu.cluster / requests, 3),
      `${fixed(100 * othersShare(result.cpu), 0)}%`,
    ]);
  }
  log(table(rows, 'llrrrrrrrrrrr'));
  for (const result of results) {
    if (nonOk(result.load.totalStatuses) > 0) log(`  ${result.target} ${result.mode}: responses ${describeCounts(result.load.totalStatuses)}`);
  }
  const openApp = find('app', 'open').load;
  const openAppCpu = find('app', 'open').cpu;
  log(
    `  open loop, app: its process was busy ${fixed((100 * openAppCpu.server) / settings.openDurationMs, 0)}% of one core (${fixed(openAppCpu.server / openApp.total, 2)} ms × ${settings.openRate} req/s; ` +
      `its JavaScript runs on one thread, so near 100% requests queue); at most ${openApp.maxInFlight} in flight; ` +
      `load generator's scheduler at most ${fixed(openApp.maxSchedulerLagMs ?? 0, 1)} ms late`,
  );

  if (breakdown.length) {
    const appCpu = find('app', 'closed');
    const floorCpu = find('floor', 'closed');
    const ceilingCpu = find('ceiling', 'closed');
    log('');
    log(`server-process CPU per request, closed loop c=${settings.concurrency} (the app serves one request at a time per core: 1000 / ms = its req/s ceiling):`);
    const lines: [string, number][] = [
      ['ceiling: node:http, constant body', ceilingCpu.cpu.server / ceilingCpu.load.total],
      ['floor: node:http + pg.Pool, the same statement', floorCpu.cpu.server / floorCpu.load.total],
      ...breakdown.map((probe) => [`app ${probe.label}`, probe.cpuMs] as [string, number]),
      [`app GET ${routePath} with key (200): + the key lookup statement on pg.Pool`, appCpu.cpu.server / appCpu.load.total],
    ];
    for (const [label, ms] of lines) log(`  ${fixed(ms, 3).padStart(7)} ms  ${label}`);
  }

  log('');
  log('database writes per request (pg_stat_user_tables and pg_current_wal_lsn() deltas over each phase, warm-up included):');
  const writeRows: string[][] = [
    ['target', 'load', 'requests', 'logged ins+upd', 'per req', 'unlogged ins+upd', 'per req', 'WAL bytes', 'per req', 'WAL fsync waits', 'per req'],
  ];
  for (const result of results) {
    if (!result.writes) continue;
    const logged = sumWrites(result.writes.tables, false);
    const unlogged = sumWrites(result.writes.tables, true);
    const requests = result.load.total;
    writeRows.push([
      result.target,
      modeLabel(result.mode),
      String(requests),
      `${logged.inserted}+${logged.updated}`,
      fixed((logged.inserted + logged.updated) / requests, 4),
      `${unlogged.inserted}+${unlogged.updated}`,
      fixed((unlogged.inserted + unlogged.updated) / requests, 3),
      String(result.writes.walBytes),
      fixed(result.writes.walBytes / requests, 1),
      result.writes.clientWalFsyncs === null ? '-' : String(result.writes.clientWalFsyncs),
      result.writes.clientWalFsyncs === null ? '-' : fixed(result.writes.clientWalFsyncs / requests, 4),
    ]);
  }
  log(table(writeRows, 'llrrrrrrrrr'));
  log('  (WAL fsync waits: WAL flushes done by client backends, pg_stat_io, PostgreSQL 18+: commits that waited for durability)');
  let countsComplete = true;
  let lastUsedWithinBound = true;
  for (const result of results) {
    if (!result.writes) continue;
    const ok = result.load.totalStatuses.get('200') ?? 0;
    const buckets = result.writes.tables.find((t) => t.table === 'rate_limit_buckets');
    const bucketWrites = (buckets?.inserted ?? 0) + (buckets?.updated ?? 0);
    if (bucketWrites !== ok || !result.countsComplete) countsComplete = false;
    const keyUpdates = result.writes.tables.find((t) => t.table === 'api_keys')?.updated ?? 0;
    const bound = result.lastUsedBound;
    if (keyUpdates > bound) lastUsedWithinBound = false;
    const others = result.writes.tables.filter((t) => t.table !== 'rate_limit_buckets' && t.table !== 'api_keys');
    log(
      `  ${result.target} ${modeLabel(result.mode)}: rate_limit_buckets ${bucketWrites} row writes for ${ok} answers 200; ` +
        `api_keys.last_used_at ${keyUpdates} updates (at most ${bound}: one per key per clock minute)` +
        (others.length ? `; other tables: ${others.map((t) => `${t.table} +${t.inserted} ~${t.updated} -${t.deleted}`).join(', ')}` : ''),
    );
  }
  log(`  counters complete (exactly one rate_limit_buckets write per 200 answer): ${countsComplete ? 'yes' : 'NO (statistics not fully published, or requests refused)'}`);
  log(
    `  most requests sent with one key over the whole run: floor ${rotations.floor.maxSent()}, app ${rotations.app.maxSent()} ` +
      `(limit ${settings.rateLimit} per sliding minute)`,
  );

  for (const server of [app, floor, ceiling]) {
    const { lines, distinct } = server.logged();
    if (lines === 0) continue;
    log(`\n${server.name} printed ${lines} log line${lines > 1 ? 's' : ''} during the run (LOG_LEVEL=warn), ${distinct.length} distinct:`);
    for (const line of distinct.slice(0, 5)) log(`  ${line}`);
  }

  const appClosed = find('app', 'closed');
  // Durable writes of the app: only last_used_at (bounded), nothing else logged, and no more commits
  // waiting for a WAL flush than last_used_at updates.
  const appPhases = results.filter((result) => result.target === 'app' && result.writes);
  let appKeyUpdates = 0;
  let appOtherLogged = 0;
  let appFsyncs: number | null = 0;
  let appPhaseRequests = 0;
  for (const result of appPhases) {
    const writes = result.writes!;
    const logged = sumWrites(writes.tables, false);
    const keyUpdates = writes.tables.find((t) => t.table === 'api_keys')?.updated ?? 0;
    appKeyUpdates += keyUpdates;
    appOtherLogged += logged.inserted + logged.updated - keyUpdates;
    appFsyncs = appFsyncs === null || writes.clientWalFsyncs === null ? null : appFsyncs + writes.clientWalFsyncs;
    appPhaseRequests += result.load.total;
  }
  const durableOk = lastUsedWithinBound && appOtherLogged === 0 && (appFsyncs === null || appFsyncs <= appKeyUpdates);
  const ratio = appClosed.load.rps / floorRps;
  const openP99 = summarise(openApp.latencies).p99;
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
  const allOk = results.every((result) => nonOk(result.load.totalStatuses) === 0);
  log('');
  log('targets (timing is noisy: PASS/MISS is information, the exit code ignores it):');
  log(`  ${verdict(ratio >= targets.throughputRatio)}  app req/s ≥ ${targets.throughputRatio} × floor req/s: ${fixed(appClosed.load.rps, 0)} / ${fixed(floorRps, 0)} = ${fixed(ratio, 2)}×`);
  log(`  ${verdict(openP99 < targets.openLoopP99Ms)}  app p99 < ${targets.openLoopP99Ms} ms, open loop at ${settings.openRate} req/s: ${fixed(openP99, 2)} ms`);
  log(
    `  ${verdict(durableOk)}  no durable write per request (app, ${appPhaseRequests} requests): last_used_at ${appKeyUpdates} updates, at most one per key per clock minute; ` +
      `other logged-table row writes ${appOtherLogged}; commits that waited for a WAL flush ${appFsyncs ?? '? (needs PostgreSQL 18)'} (≤ last_used_at updates)`,
  );
  log(`  ${verdict(allOk)}  every response 200${allOk ? ' (no 429: enough keys)' : ': see the counts above'}`);

  // Second section: the rows query at the table limits (bench/tables-rows.ts), in this process on the
  // same database, once the servers above are stopped so they take no CPU from it.
  if (sectionOn('TABLES')) {
    await stopAll();
    const { runTablesRowsBench } = await import('./tables-rows');
    await runTablesRowsBench({ databaseUrl: database.url, log });
  }
  // Mail: MIME ingest vs bare mailparser, then the sync against a local Dovecot (bench/mime-ingest.ts,
  // bench/mail-sync.ts), on the same database with the servers above stopped.
  if (sectionOn('MAIL')) {
    await stopAll();
    const { runMimeIngestBench } = await import('./mime-ingest');
    await runMimeIngestBench({ log });
    const { runMailSyncBench } = await import('./mail-sync');
    await runMailSyncBench({ databaseUrl: database.url, log });
    // The threads and messages lists on a mirror of 500,000 messages (BENCH_MAIL_MESSAGES).
    const { runMailListsBench } = await import('./mail-lists');
    await runMailListsBench({ databaseUrl: database.url, log });
    // bodyHtmlSafe: in its own process, since it measures that process's event loop while the pool works.
    log('');
    const sanitize = spawnSync(process.execPath, tsxArgs(path.join(root, 'bench', 'sanitize.ts')), { stdio: 'inherit', cwd: root });
    if (sanitize.status !== 0) log(`sanitize bench failed (exit ${sanitize.status ?? sanitize.signal})`);
  }
  // The workflow engine (bench/engine.ts): the real runner vs graphile-worker alone, the webhook on the production
  // build, then the executions list and detail at 1,000,000 executions; on the same database, servers above stopped.
  if (sectionOn('ENGINE')) {
    await stopAll();
    const { runEngineBench } = await import('./engine');
    await runEngineBench({ databaseUrl: database.url, log });
  }
  // The morning review queue at 100,000 outbound messages (bench/review-list.ts); BENCH_REVIEW=0 skips it.
  if (sectionOn('REVIEW')) {
    await stopAll();
    const { runReviewListBench } = await import('./review-list');
    await runReviewListBench({ databaseUrl: database.url, log });
  }
  // The address book's list with q and a mailbox view at 100,000 entries (bench/contacts.ts); BENCH_CONTACTS=0 skips it.
  if (sectionOn('CONTACTS')) {
    await stopAll();
    const { runContactsBench } = await import('./contacts');
    await runContactsBench({ databaseUrl: database.url, log });
  }
  // The send pipeline (bench/send.ts): sends per second through outbound rows, jobs and the mail.send task vs bare
  // nodemailer, to the same local SMTP peer; BENCH_SEND=0 skips it.
  if (sectionOn('SEND')) {
    await stopAll();
    const { runSendBench } = await import('./send');
    await runSendBench({ databaseUrl: database.url, log });
  }
  // The mailbox analyzer's statistics phase at 100,000 messages vs a plain count (bench/analyzer-stats.ts); BENCH_ANALYZER=0 skips it.
  if (sectionOn('ANALYZER')) {
    await stopAll();
    const { runAnalyzerStatsBench } = await import('./analyzer-stats');
    await runAnalyzerStatsBench({ databaseUrl: database.url, log });
  }

  // The HTTP node's client (bench/http-node-client.ts): guardedRequest and guardedFetch vs undici's bare request, CPU
  // per call; BENCH_HTTP_CLIENT=0 skips it.
  if (sectionOn('HTTP_CLIENT')) {
    const { runHttpNodeClientBench } = await import('./http-node-client');
    await runHttpNodeClientBench({ log });
  }
  // AI node overhead (bench/ai-overhead.ts): an ai.classify step through the ai capability vs the bare AI SDK call to
  // the same instant local fake vendor; BENCH_AI=0 skips it.
  if (sectionOn('AI')) {
    await stopAll();
    const { runAiOverheadBench } = await import('./ai-overhead');
    await runAiOverheadBench({ databaseUrl: database.url, log });
  }
  // The dashboard's three routes at 1,000,000 executions, 500,000 journal entries and 200,000 AI usage rows, spread
  // over a year then over a busy month (bench/dashboard.ts); last, since it empties the fact tables it seeds.
  // BENCH_DASHBOARD=0 skips it.
  if (sectionOn('DASHBOARD')) {
    await stopAll();
    const { runDashboardBench } = await import('./dashboard');
    await runDashboardBench({ databaseUrl: database.url, log });
  }
  log(`\ntotal time ${fixed((Date.now() - startedAt) / 1000, 0)} s, load average now ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
process.exit(process.exitCode ?? 0);
