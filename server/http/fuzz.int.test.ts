/**
 * The fuzzed surface (issue 6, "A fuzzed surface, in CI"): every operation of the generated OpenAPI
 * document, generated routes and hand-declared plain routes alike, receives malformed input derived
 * from its own schemas, with no credential, member and administrator sessions, and keys with and
 * without the scope it needs. Nothing may answer 5xx; every error is JSON in the envelope with a
 * catalogue code whose status is the HTTP status; and memory returns to its level afterwards.
 *
 * Requests go in-process through the application's routing (server/testing/fuzz/dispatch.ts), plus
 * a few over a real node:http socket for raw bytes. Reproduce a run with FUZZ_SEED=<seed printed
 * below>; scale it with FUZZ_BUDGET (1 by default, e.g. FUZZ_BUDGET=10 for a long local run).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../core/config';
import { db } from '../core/db';
import { openApiDocument } from './plain/routes';
import { planCases } from '../testing/fuzz/cases';
import { credentialsFor } from '../testing/fuzz/credentials';
import { createDispatcher } from '../testing/fuzz/dispatch';
import { currentHeap, mb, settledMemory, type MemoryReading } from '../testing/fuzz/memory';
import { operationsOf, type FuzzOperation } from '../testing/fuzz/operations';
import { budgetFromEnv, createRng, seedFromEnv } from '../testing/fuzz/prng';
import { judgeExchange, rawCases, type RawCaseContext } from '../testing/fuzz/raw-cases';
import { startRawServer, type RawServer } from '../testing/fuzz/raw-http';
import { formatFailures, formatFigures } from '../testing/fuzz/report';
import { defineCursorPiece, FuzzStats, runCase, type Failure } from '../testing/fuzz/run';
import { schemaContext } from '../testing/fuzz/schema';
import { fixtureFigures, World } from '../testing/fuzz/world';
import { useTestDatabase } from '../testing/test-database';

await useTestDatabase();

// A linked instance, so the support routes' writes reach their handlers (nothing delivers here: no runner).
Object.assign(process.env, { CONTROL_PLANE_URL: 'http://127.0.0.1:9', CONTROL_PLANE_INSTANCE_ID: 'fuzz-instance', CONTROL_PLANE_SECRET: 'fuzz-control-plane-secret' });
resetConfigForTests();

const seed = seedFromEnv();
const budget = budgetFromEnv();
const document = openApiDocument('en');
const context = schemaContext(document);
const { operations, skipped } = operationsOf(document, context);
const dispatch = createDispatcher();
const stats = new FuzzStats();
const startedAt = Date.now();
let baseline: MemoryReading | null = null;
let peakHeap = 0;
let rawRequests = 0;

/** What the fuzz may leave behind in memory: a leak of request bodies (megabytes each) exceeds it. */
const heapTolerance = 24 * 1024 * 1024;
const externalTolerance = 16 * 1024 * 1024;

async function deleteTables(ids: string[]): Promise<void> {
  if (ids.length) await db().dataTable.deleteMany({ where: { id: { in: ids } } });
}

async function fuzzOperation(operation: FuzzOperation, index: number, options: { warmUp: boolean }): Promise<Failure[]> {
  const world = new World(dispatch, `${options.warmUp ? 'w' : 'o'}${index}`);
  const runContext = { dispatch, world, stats };
  const { passing } = credentialsFor(operation);
  defineCursorPiece(runContext, operation, passing[0]);
  const plan = planCases(context, operation, createRng(seed).fork(operation.id), budget);
  const cases = options.warmUp ? plan.cases.filter((fuzzCase) => fuzzCase.family === 'valid') : plan.cases;
  const before = stats.failures.length;
  try {
    for (const fuzzCase of cases) await runCase(runContext, operation, fuzzCase);
  } finally {
    await world.dispose(deleteTables);
  }
  peakHeap = Math.max(peakHeap, currentHeap());
  return stats.failures.slice(before);
}

describe('fuzzed surface: every operation of the OpenAPI document', () => {
  beforeAll(async () => {
    console.log(`fuzz: seed ${seed} (FUZZ_SEED=${seed} reproduces this run), budget ${budget}, ${operations.length} operations`);
    // Warm-up: every operation once with valid input, so modules and long-lived caches are loaded
    // before the memory baseline is read.
    for (const [index, operation] of operations.entries()) await fuzzOperation(operation, index, { warmUp: true });
    baseline = await settledMemory();
  }, 120_000);

  afterAll(() => {
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    console.log(
      `fuzz figures\n${formatFigures(stats, {
        seed,
        budget,
        'operations covered': `${operations.length} (${operations.filter((operation) => operation.id.includes('{')).length} with path parameters)`,
        'operations not fuzzed': skipped.map((entry) => `${entry.id}: ${entry.reason}`).join('; ') || 'none',
        'requests over a real socket': rawRequests,
        'wall time': `${seconds} s`,
        'peak heap seen': mb(peakHeap),
        'fixtures built': `${fixtureFigures.builds} (${(fixtureFigures.ms / 1000).toFixed(1)} s, nested builds counted in each)`,
      })}`,
    );
    if (stats.failures.length) console.log(formatFailures(stats.failures));
  });

  it('covers every path of the document, including the hand-declared plain routes', () => {
    const documented = Object.keys(document.paths ?? {}).length;
    const covered = new Set([...operations, ...skipped].map((operation) => operation.id.split(' ')[1]));
    expect(covered.size).toBe(documented);
    expect(operations.some((operation) => operation.path.endsWith('/export.csv'))).toBe(true);
  });

  it.each(operations.map((operation, index) => ({ operation, index, id: operation.id })))(
    '$id: no 5xx, every error in the envelope with a code its document entry lists',
    async ({ operation, index }) => {
      const failures = await fuzzOperation(operation, index, { warmUp: false });
      expect(failures.length, formatFailures(failures)).toBe(0);
      // The document promises which codes a route answers; a client generated from it must not meet others.
      expect([...(stats.undocumented.get(operation.id) ?? [])].sort()).toEqual([]);
    },
    // A bound for a stuck operation, not a speed target: accepting an invitation hashes each new member's password
    // at the production scrypt cost (its ~50 accepted cases, ~70 ms each alone), which took over 60 s once under the
    // whole suite's load on 2 cores beside other work.
    180_000 * budget,
  );

  describe('over a real socket (raw bytes)', () => {
    let server: RawServer;
    let world: World;
    let rawContext: RawCaseContext;

    beforeAll(async () => {
      server = await startRawServer(dispatch);
      world = new World(dispatch, 'raw');
      rawContext = { port: server.port, adminCookie: String(await world.resolve('admin.cookie')), tableId: String(await world.resolve('table.id')) };
    });

    afterAll(async () => {
      await world.dispose(deleteTables);
      await server.close();
    });

    it.each(rawCases.map((rawCase) => ({ rawCase, label: rawCase.label })))('$label', async ({ rawCase }) => {
      const problems: string[] = [];
      for (let attempt = 0; attempt < (rawCase.times ?? 1); attempt++) {
        const exchange = await rawCase.run(rawContext);
        rawRequests++;
        for (const [index, verdict] of judgeExchange(rawCase, exchange).entries()) {
          const status = exchange.responses[index]?.status ?? 0;
          stats.count(status, verdict.code, `raw: ${rawCase.label}`);
          if (verdict.problem) {
            problems.push(`attempt ${attempt + 1}: ${verdict.problem.kind} ${verdict.problem.detail}${verdict.code ? ` (${verdict.code})` : ''}`);
          }
        }
      }
      // The server still answers a plain request on a new connection afterwards.
      const after = await rawCases.find((candidate) => candidate.label.startsWith('a body on a GET'))!.run(rawContext);
      if (after.responses[0]?.status !== 200) problems.push(`the server did not answer a plain GET afterwards (${after.ending})`);
      expect(problems).toEqual([]);
    }, 60_000);
  });

  it('memory returns to its level after the fuzz', async () => {
    expect(baseline).not.toBeNull();
    const after = await settledMemory();
    console.log(
      `fuzz memory (${after.forcedGc ? 'after forced GC' : 'settled, no GC available'}): heap ${mb(baseline!.heapUsed)} → ${mb(after.heapUsed)}, external ${mb(baseline!.external)} → ${mb(after.external)}, rss ${mb(baseline!.rss)} → ${mb(after.rss)}`,
    );
    const factor = after.forcedGc ? 1 : 2;
    expect(after.heapUsed - baseline!.heapUsed).toBeLessThan(heapTolerance * factor);
    expect(after.external - baseline!.external).toBeLessThan(externalTolerance * factor);
  }, 60_000);
});
