/**
 * Mail HTML sanitising (`npx tsx bench/sanitize.ts`; not part of `npm run bench`, which measures the
 * HTTP path against a database): a deterministic corpus of newsletter-like mails of 50 to 300 KB
 * (bench/mail-corpus.ts) through three paths, next to a floor measured in the same run:
 *
 *   floor   bare DOMPurify over a jsdom window (`WHOLE_DOCUMENT: true`, no hooks), in this thread
 *   rules   sanitizeMailHtml (the project's rules: CSS rebuilt, URLs checked, bounds), in this thread
 *   pool    sanitizeInPool, one mail at a time: the rules plus the trip to a worker thread
 *
 * Rounds are interleaved (floor, rules, pool, floor, …) so background load spreads over all three.
 * Then the event loop of this thread while the pool sanitises the whole corpus submitted at once
 * (`monitorEventLoopDelay` and the longest gap of a 5 ms timer), next to the same for the corpus
 * sanitised in this thread, which is what the pool spares the web process.
 *
 * Targets (information, never the exit code: machines are noisy): pool time per mail ≤ 1.5 × floor;
 * the event loop never blocked more than 50 ms while the pool works.
 */
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import createDOMPurify, { type WindowLike } from 'dompurify';
import { JSDOM, VirtualConsole } from 'jsdom';
import { newsletterCorpus } from './mail-corpus';

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const settings = { mails: intEnv('BENCH_SANITIZE_MAILS', 24), rounds: intEnv('BENCH_SANITIZE_ROUNDS', 3) };
const targets = { poolRatio: 1.5, loopBlockMs: 50 };
// Every mail of the corpus may wait for a thread at once in the event-loop phase.
process.env.SANITIZE_QUEUE ??= String(settings.mails);

const { sanitizeMailHtml } = await import('../server/mail/sanitize/sanitize-html');
const { closeSanitizePool, sanitizeInPool, sanitizePoolStats } = await import('../server/mail/sanitize/sanitize-pool');

const log = (message: string) => console.log(message);
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

const { window } = new JSDOM('', { virtualConsole: new VirtualConsole() });
const bare = createDOMPurify(window as unknown as WindowLike);
const floor = (html: string) => bare.sanitize(html, { WHOLE_DOCUMENT: true });

type Path = 'floor' | 'rules' | 'pool';
const paths: Record<Path, (html: string) => unknown> = {
  floor,
  rules: (html) => sanitizeMailHtml(html),
  pool: (html) => sanitizeInPool(html),
};

/** Milliseconds per mail, one mail at a time. */
async function timeEach(path: Path, corpus: string[]): Promise<number[]> {
  const times: number[] = [];
  for (const html of corpus) {
    const started = performance.now();
    await paths[path](html);
    times.push(performance.now() - started);
  }
  return times;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const sortedPercentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

/** The event loop of this thread while `work` runs: largest delay seen and longest gap of a 5 ms timer. */
async function watchLoop(work: () => Promise<unknown>): Promise<{ wallMs: number; maxDelayMs: number; p99DelayMs: number; longestGapMs: number }> {
  await sleep(50);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 5);
  histogram.enable();
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  longestGap = Math.max(longestGap, performance.now() - last);
  histogram.disable();
  clearInterval(ticker);
  return { wallMs, maxDelayMs: histogram.max / 1e6, p99DelayMs: histogram.percentile(99) / 1e6, longestGapMs: Math.max(0, longestGap - 5) };
}

async function main(): Promise<void> {
  const corpus = newsletterCorpus(settings.mails);
  const bytes = corpus.map((html) => Buffer.byteLength(html));
  const elements = corpus.map((html) => (html.match(/<[a-zA-Z]/g) ?? []).length);
  log(`mail HTML sanitising bench: Node ${process.version}, ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model.trim()}), load average ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  log(
    `corpus: ${corpus.length} newsletter-like mails, ${fixed(Math.min(...bytes) / 1024, 0)}-${fixed(Math.max(...bytes) / 1024, 0)} KB (${fixed(sum(bytes) / 1024 / 1024, 2)} MB), ` +
      `${Math.min(...elements)}-${Math.max(...elements)} opening tags each`,
  );

  // Warm-up: jsdom, DOMPurify, the pool's thread (its start, ~0.5-1 s, is not a per-mail cost).
  for (const path of ['floor', 'rules', 'pool'] as const) await timeEach(path, corpus.slice(0, 3));
  log(`pool: ${sanitizePoolStats().threads} thread(s) (SANITIZE_THREADS default: CPUs - 1, 1 to 4)`);

  // The event loop first, while this thread's heap holds none of the floor's and rules' garbage (the
  // web process never runs jsdom on its own thread).
  log('');
  log('event loop of this thread while the whole corpus is sanitised (every mail submitted at once):');
  const pooled = await watchLoop(() => Promise.all(corpus.map((html) => sanitizeInPool(html))));
  const inline = await watchLoop(async () => {
    for (const html of corpus) sanitizeMailHtml(html);
  });
  const longestBlock = (result: typeof pooled) => Math.max(result.maxDelayMs, result.longestGapMs);
  log('where                         wall ms   mails/s   longest block ms   p99 delay ms');
  for (const [label, result] of [
    ['pool (worker threads)', pooled],
    ['this thread (no pool)', inline],
  ] as const) {
    log(
      `${label.padEnd(28)} ${fixed(result.wallMs, 0).padStart(8)} ${fixed((1000 * corpus.length) / result.wallMs, 1).padStart(9)} ` +
        `${fixed(longestBlock(result)).padStart(18)} ${fixed(result.p99DelayMs).padStart(14)}`,
    );
  }
  log('  (longest block: the larger of monitorEventLoopDelay\'s maximum and the longest late tick of a 5 ms timer)');
  log('');

  const times: Record<Path, number[]> = { floor: [], rules: [], pool: [] };
  for (let round = 0; round < settings.rounds; round += 1) {
    const line: string[] = [];
    for (const path of ['floor', 'rules', 'pool'] as const) {
      const roundTimes = await timeEach(path, corpus);
      times[path].push(...roundTimes);
      line.push(`${path} ${fixed(sum(roundTimes) / roundTimes.length)} ms/mail`);
    }
    log(`round ${round + 1}/${settings.rounds}: ${line.join(', ')}`);
  }

  log('');
  log(`time per mail, one at a time (${settings.rounds} rounds × ${corpus.length} mails, interleaved):`);
  log('path                                      mean ms   p50 ms   p95 ms   max ms   vs floor');
  const floorMean = sum(times.floor) / times.floor.length;
  const labels: Record<Path, string> = {
    floor: 'floor: bare DOMPurify, this thread',
    rules: 'rules: sanitizeMailHtml, this thread',
    pool: 'pool: sanitizeInPool (worker thread)',
  };
  for (const path of ['floor', 'rules', 'pool'] as const) {
    const mean = sum(times[path]) / times[path].length;
    log(
      `${labels[path].padEnd(40)} ${fixed(mean).padStart(8)} ${fixed(sortedPercentile(times[path], 50)).padStart(8)} ${fixed(sortedPercentile(times[path], 95)).padStart(8)} ` +
        `${fixed(Math.max(...times[path])).padStart(8)} ${`${fixed(mean / floorMean, 2)}×`.padStart(10)}`,
    );
  }
  const perKb = (path: Path) => sum(times[path]) / ((sum(bytes) / 1024) * settings.rounds);
  log(`  per KB of HTML: floor ${fixed(perKb('floor'), 2)} ms, rules ${fixed(perKb('rules'), 2)} ms, pool ${fixed(perKb('pool'), 2)} ms`);

  const poolMean = sum(times.pool) / times.pool.length;
  const block = longestBlock(pooled);
  log('');
  log('targets (timing is noisy: PASS/MISS is information, the exit code ignores it):');
  log(`  ${verdict(poolMean <= targets.poolRatio * floorMean)}  pool time per mail ≤ ${targets.poolRatio} × floor: ${fixed(poolMean)} / ${fixed(floorMean)} ms = ${fixed(poolMean / floorMean, 2)}×`);
  log(`  ${verdict(block <= targets.loopBlockMs)}  event loop blocked ≤ ${targets.loopBlockMs} ms while the pool sanitises: longest ${fixed(block)} ms (p99 delay ${fixed(pooled.p99DelayMs)} ms)`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await closeSanitizePool();
}
