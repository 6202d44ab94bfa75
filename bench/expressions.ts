/**
 * Expression evaluation cost per step (part of bench/engine.ts; alone: `npx tsx bench/expressions.ts`, no
 * database): the parameters of the engine bench's workflow (bench/engine-graph.ts) resolved one step at a time,
 * against the scope such a step has, next to a floor measured in the same run:
 *
 *   floor     resolveParams: the same functions on this thread (what the engine did before the sandbox)
 *   engine    resolveParamsInSandbox, as a step resolves now: these parameters are plain field paths, resolved
 *             inline (no thread); a step with a call, a filter or a loop goes to a thread instead:
 *   thread    the same expressions forced onto a sandbox worker thread (what such a step pays)
 *
 * Two scopes: the bench's (a small webhook body) and a large one (a 256 KB trigger and four upstream nodes of
 * 256 KB each, the bounds of step data), since the scope a step reads is copied to the thread. Interleaved
 * rounds (floor, engine, thread, floor, …). Target (information only): the thread's p50 per step on the bench
 * scope ≤ 10 ms, the engine's per-step overhead target (so even a step whose expressions all need a thread fits).
 */
import { pathToFileURL } from 'node:url';
import { engineBenchGraph } from './engine-graph';
import { quantiles } from './engine-measure';
import { fixed, table } from './stats';

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const settings = { steps: intEnv('BENCH_EXPRESSION_STEPS', 400), rounds: intEnv('BENCH_EXPRESSION_ROUNDS', 4) };
const targetP50Ms = 10;

function scopes() {
  const execution = { id: '0b7f7e51-4a55-4f43-9d1b-1f0f3e6b2a11', workflowId: '5d1c3c1e-7a59-4f7e-8e0e-9a3c0d2b6f10', simulated: false };
  const small = { trigger: { index: 7, amount: 7 }, input: { index: 7, amount: 7, tagged: true }, nodes: { start: { index: 7, amount: 7 }, tag: { index: 7, amount: 7, tagged: true } }, execution, now: new Date().toISOString() };
  const body = (seed: number) => ({ id: seed, subject: `Message ${seed}`, text: 'lorem ipsum dolor sit amet '.repeat(9_000).slice(0, 240_000), to: [{ email: 'ann@example.com' }] });
  const large = { ...small, trigger: body(0), input: body(1), nodes: { start: body(0), tag: body(1), check: body(2), shape: body(3) } };
  return { small, large };
}

/** The parameters of the bench workflow's steps that hold expressions (each a step's resolve). */
function stepParams(): Record<string, unknown>[] {
  return engineBenchGraph('http://127.0.0.1:1/sink')
    .nodes!.map((node) => node.params as Record<string, unknown>)
    .filter((params) => JSON.stringify(params).includes('{{'));
}

export async function runExpressionBench(options: { log: (message: string) => void }): Promise<{ floorP50: number; threadP50: number }> {
  const { log } = options;
  const { expressionSites, resolveParams } = await import('../server/engine/expressions');
  const { closeExpressionSandbox, expressionSandboxStats, resolveParamsInSandbox, startExpressionSandbox } = await import('../server/engine/expressions/sandbox');
  const { evaluateSitesInSandbox } = await import('../server/engine/expressions/sandbox/pool');
  const onThread = async (params: Record<string, unknown>, scope: Parameters<typeof resolveParams>[1]) => evaluateSitesInSandbox(expressionSites(params), scope);
  const params = stepParams();
  const { small, large } = scopes();
  startExpressionSandbox();
  // Warm both paths (the threads load their code; JIT) before measuring.
  for (let index = 0; index < 50; index += 1) {
    await resolveParams(params[index % params.length], small);
    await resolveParamsInSandbox(params[index % params.length], small);
    await onThread(params[index % params.length], small);
  }
  const targets = { floor: resolveParams, engine: resolveParamsInSandbox, thread: onThread } as const;
  const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, { small: [] as number[], large: [] as number[] }])) as Record<keyof typeof targets, { small: number[]; large: number[] }>;
  const perRound = Math.max(1, Math.floor(settings.steps / settings.rounds));
  for (let round = 0; round < settings.rounds; round += 1) {
    for (const target of ['floor', 'engine', 'thread'] as const) {
      for (const size of ['small', 'large'] as const) {
        const scope = size === 'small' ? small : large;
        const resolve = targets[target];
        // The large scope costs more per step: fewer of them.
        const count = size === 'small' ? perRound : Math.max(1, Math.floor(perRound / 8));
        for (let index = 0; index < count; index += 1) {
          const started = performance.now();
          await resolve(params[index % params.length], scope);
          samples[target][size].push(performance.now() - started);
        }
      }
    }
  }
  const stats = expressionSandboxStats();
  await closeExpressionSandbox();
  const rows: string[][] = [['', 'steps', 'p50', 'p90', 'p99', 'max']];
  const row = (label: string, values: number[]) => {
    const q = quantiles(values);
    return [label, String(q.count), fixed(q.p50, 2), fixed(q.p90, 2), fixed(q.p99, 2), fixed(q.max, 2)];
  };
  rows.push(row('floor: in this thread, bench scope', samples.floor.small));
  rows.push(row('engine: as a step resolves (inline), bench scope', samples.engine.small));
  rows.push(row('thread: on a sandbox thread, bench scope', samples.thread.small));
  rows.push(row('floor: in this thread, 1.25 MB scope', samples.floor.large));
  rows.push(row('engine: as a step resolves (inline), 1.25 MB scope', samples.engine.large));
  rows.push(row('thread: on a sandbox thread, 1.25 MB scope', samples.thread.large));
  log('');
  log(`expression evaluation per step (ms; the bench workflow's ${params.length} steps with expressions, ${settings.rounds} interleaved rounds; ${stats.threads} sandbox threads):`);
  for (const line of table(rows)) log(`  ${line}`);
  const p50 = (values: number[]) => quantiles(values).p50;
  const floorP50 = p50(samples.floor.small);
  const threadP50 = p50(samples.thread.small);
  log(
    `  ${threadP50 <= targetP50Ms ? 'PASS' : 'MISS'}  a step on a sandbox thread p50 ≤ ${targetP50Ms} ms on the bench scope: ${fixed(threadP50, 2)} ms ` +
      `(floor, in this thread: ${fixed(floorP50, 2)} ms = ${fixed(threadP50 / floorP50, 1)}×; as the bench's steps resolve, inline: ${fixed(p50(samples.engine.small), 2)} ms; ` +
      `1.25 MB scope: thread ${fixed(p50(samples.thread.large), 2)} ms, inline ${fixed(p50(samples.engine.large), 2)} ms, floor ${fixed(p50(samples.floor.large), 2)} ms)`,
  );
  return { floorP50, threadP50 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runExpressionBench({ log: (message) => console.log(message) });
}
