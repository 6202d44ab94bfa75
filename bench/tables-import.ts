/**
 * CSV import and preview under hostile files (`npx tsx bench/tables-import.ts`; not part of
 * `npm run bench`): the worst file for the importer that fits the 5 MiB request body, one-character
 * lines (issue 6, item 7: "x\n" is 3 bytes of JSON, so 1.75 million lines), the 300 pathological
 * email cells of item 8, and, for scale, a legitimate import of 100,000 three-column lines.
 *
 * Each scenario runs in a fresh child process (`--expose-gc`), through the in-process REST handler
 * (API key, JSON body parse, zod, the service, the envelope), and reports:
 *
 *   peak heap    the highest `heapUsed` sampled every 5 ms during the request, minus the heap after
 *                a full GC before it (a sample cannot be taken while the loop is blocked, so this is
 *                a lower bound for code that blocks; the allocations stay alive until it yields)
 *   peak RSS     `maxRSS` of the child at the end minus its RSS before the request
 *   longest block the longest time the event loop could not run a 5 ms timer (and the largest delay
 *                `monitorEventLoopDelay` saw, whichever is larger)
 *   wall         the request's duration
 *
 * Figures are printed, never asserted: machines are noisy.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..');

interface Scenario {
  name: string;
  what: string;
  table: 'letters' | 'emails' | 'people';
  route: 'preview' | 'import';
  body: () => Record<string, unknown>;
}

/** As many one-character lines as a 5 MiB JSON body holds (each is `x\n`, 3 bytes once JSON-escaped). */
const worstLines = Math.floor((5 * 1024 * 1024 - 200) / 3);
const worstFile = `A\n${'x\n'.repeat(worstLines - 1)}`;
const pathologicalEmail = `a@${'.'.repeat(9996)}@`;

const scenarios: Scenario[] = [
  { name: 'preview-worst', what: `preview, 5 MiB body of one-character lines (${(worstLines / 1e6).toFixed(2)} M lines)`, table: 'letters', route: 'preview', body: () => ({ csv: worstFile }) },
  { name: 'import-worst', what: `import, 5 MiB body of one-character lines (${(worstLines / 1e6).toFixed(2)} M lines)`, table: 'letters', route: 'import', body: () => ({ csv: worstFile, mapping: { A: 'a' } }) },
  {
    name: 'import-emails',
    what: `import, 300 lines of 'a@' + 9,996 dots + '@' into an email column`,
    table: 'emails',
    route: 'import',
    body: () => ({ csv: `E\n${`${pathologicalEmail}\n`.repeat(300)}`, mapping: { E: 'e' } }),
  },
  {
    name: 'import-large',
    what: 'import, 100,000 valid lines × 3 columns (legitimate, at the row ceiling)',
    table: 'people',
    route: 'import',
    body: () => ({
      csv: `Code,Name,Score\n${Array.from({ length: 100_000 }, (_, index) => `k${index},Person ${index},${index % 1000}`).join('\n')}`,
      mapping: { Code: 'code', Name: 'name', Score: 'score' },
    }),
  },
];

interface Measured {
  status: number;
  code: string | null;
  peakHeapMb: number;
  peakRssMb: number;
  longestBlockMs: number;
  wallMs: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** In the child: one request, measured. */
async function measureChild(scenarioName: string, tableId: string, secret: string): Promise<void> {
  const scenario = scenarios.find((candidate) => candidate.name === scenarioName)!;
  const { handleRestRequest } = await import('../server/http/rest-handler');
  const { clientIpHeader } = await import('../server/core/http/client-headers');
  const body = JSON.stringify(scenario.body());
  const path = scenario.route === 'preview' ? `/api/v1/tables/${tableId}/import/preview` : `/api/v1/tables/${tableId}/import`;
  const request = new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', [clientIpHeader]: '127.0.0.1' },
    body,
  });
  // Warm the pipeline (route table, OpenAPI handler, database pool) with a cheap request first.
  await handleRestRequest(new Request('http://localhost/api/v1/tables/limits', { headers: { authorization: `Bearer ${secret}`, [clientIpHeader]: '127.0.0.1' } }));

  (globalThis as { gc?: () => void }).gc?.();
  await sleep(50);
  const baseHeap = process.memoryUsage().heapUsed;
  const baseRss = process.memoryUsage().rss;
  let peakHeap = baseHeap;
  // The longest gap between two ticks of a 5 ms timer is the longest time the loop could not run it.
  let lastTick = performance.now();
  let longestGap = 0;
  const sampler = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - lastTick);
    lastTick = now;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 5);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const response = await handleRestRequest(request);
  const text = await response.text();
  const wallMs = performance.now() - started;
  longestGap = Math.max(longestGap, performance.now() - lastTick);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  delay.disable();
  clearInterval(sampler);
  let code: string | null = null;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    // not JSON
  }
  const measured: Measured = {
    status: response.status,
    code,
    peakHeapMb: mb(peakHeap - baseHeap),
    peakRssMb: mb(process.resourceUsage().maxRSS * 1024 - baseRss),
    longestBlockMs: Math.max(delay.max / 1e6, longestGap - 5),
    wallMs,
  };
  console.log(`RESULT ${JSON.stringify(measured)}`);
  const { disconnectDb } = await import('../server/core/db');
  await disconnectDb();
}

function runChild(scenario: Scenario, tableId: string, secret: string, databaseUrl: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []), '--expose-gc', '--import', 'tsx', here, '--child', scenario.name, tableId, secret], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.split('\n').find((candidate) => candidate.startsWith('RESULT '));
      if (line) resolve(JSON.parse(line.slice('RESULT '.length)) as Measured);
      else reject(new Error(`${scenario.name} exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

async function main(): Promise<void> {
  const { openBenchDatabase, migrate } = await import('./database');
  const log = (message: string) => console.log(message);
  const database = await openBenchDatabase(() => undefined);
  try {
    await migrate(database.url);
    process.env.DATABASE_URL = database.url;
    const { resetConfigForTests } = await import('../server/core/config');
    resetConfigForTests();
    const { db, disconnectDb } = await import('../server/core/db');
    const { createKey } = await import('../server/domains/api-keys/service');
    const { createTable } = await import('../server/domains/tables/service');
    const created = await db().member.create({
      data: { email: `import-bench-${randomUUID().slice(0, 8)}@example.test`, name: 'Import Bench', role: 'admin', status: 'active', passwordHash: 'x' },
    });
    const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: created.id, email: created.email, name: created.name, role: created.role, createdAt: created.createdAt } };
    const column = (key: string, label: string, type: 'text' | 'email' | 'number' = 'text', isKey = false) => ({ key, label, type, isKey, required: false, options: [] });
    const tables = {
      letters: [column('a', 'A')],
      emails: [column('e', 'E', 'email')],
      people: [column('code', 'Code', 'text', true), column('name', 'Name'), column('score', 'Score', 'number')],
    };
    const { secret } = await createKey(actor, { name: 'import bench', scopes: ['tables:write'] }, null);
    await disconnectDb();

    log(`tables import bench: ${database.description}; Node ${process.version}; each scenario in a fresh process`);
    log('');
    log('scenario        status  code                     peak heap  peak RSS  longest block      wall');
    for (const scenario of scenarios) {
      process.env.DATABASE_URL = database.url;
      const { table } = await createTable(actor, { name: `${scenario.name} ${randomUUID().slice(0, 6)}`, columns: tables[scenario.table], keyUnique: true }, null);
      await disconnectDb();
      const result = await runChild(scenario, table.id, secret, database.url);
      log(
        `${scenario.name.padEnd(15)} ${String(result.status).padEnd(7)} ${(result.code ?? '-').padEnd(24)} ${result.peakHeapMb.toFixed(0).padStart(6)} MB ${result.peakRssMb.toFixed(0).padStart(6)} MB ${result.longestBlockMs.toFixed(0).padStart(9)} ms ${result.wallMs.toFixed(0).padStart(8)} ms   ${scenario.what}`,
      );
    }
  } finally {
    await database.dispose();
  }
}

if (process.argv[2] === '--child') {
  await measureChild(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}
