/**
 * The expression sandbox's own rules (pool.ts): real worker threads, real JSONata. Issue 18: an
 * expression must never hold the runner's event loop or memory; a runaway costs its thread, which is
 * replaced, and the step fails `expression_error` naming the parameter path.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../../core/config';
import { resolveParams } from '..';
import { overrideExpressionSandboxForTests } from './pool';
import { closeExpressionSandbox, expressionSandboxStats, resolveParamsInSandbox } from '.';

const scope = {
  trigger: { subject: 'Invoice 42', from: { email: 'ann@example.com' }, items: [3, 1, 2] },
  input: { name: 'Ann' },
  nodes: { set1: { total: 7 } },
  execution: { id: 'e1', workflowId: 'w1', simulated: false },
  now: '2026-03-01T10:00:00.000Z',
};

const misbehaving = fileURLToPath(new URL('./fixtures/misbehaving-worker.mjs', import.meta.url));
/** A parameter for the stand-in thread: a call, so it is sent to a thread (plain field paths are resolved inline). */
const stand = (word: string) => `{{ $stand("${word}") }}`;

/** An O(n²) built-in: one synchronous JSONata step of several seconds, which its time guardrail never sees. */
const runaway = '{{ $count($distinct([1..100000])) }}';

function configure(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
}

beforeEach(async () => {
  await closeExpressionSandbox();
});
afterEach(async () => {
  overrideExpressionSandboxForTests({});
  configure({ EXPRESSION_THREADS: undefined, EXPRESSION_QUEUE: undefined });
  await closeExpressionSandbox();
});
afterAll(async () => {
  await closeExpressionSandbox();
});

/** How many times this thread's event loop turns (setImmediate) until `work` settles. */
async function turnsDuring(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  let settled = false;
  const settledWork = work.then(
    () => (settled = true),
    () => (settled = true),
  );
  const tick = () => {
    if (settled) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  await settledWork;
  return turns;
}

describe('the expression sandbox', () => {
  it('Expressions evaluated in the sandbox give what the same functions give in process, secrets masked alike', async () => {
    const params = {
      subject: 'Re: {{ trigger.subject }}',
      total: '{{ nodes.set1.total * 2 }}',
      sorted: '{{ $sort(trigger.items) }}',
      fixed: 12,
      nested: [{ password: '{{ input.name }}', keep: 'plain' }],
      headers: [{ name: 'Authorization', value: 'Bearer {{ execution.id }}' }],
    };
    const inSandbox = await resolveParamsInSandbox(params, scope);
    expect(inSandbox).toEqual(await resolveParams(params, scope));
    expect(inSandbox.value).toMatchObject({ subject: 'Re: Invoice 42', total: 14, sorted: [1, 2, 3], nested: [{ password: 'Ann' }] });
    expect(expressionSandboxStats()).toMatchObject({ completed: 1 });
  });

  it('Parameters without {{ never reach the sandbox', async () => {
    const { value } = await resolveParamsInSandbox({ url: 'https://x.example', list: [1, 'two', { three: null }] }, scope);
    expect(value).toEqual({ url: 'https://x.example', list: [1, 'two', { three: null }] });
    expect(expressionSandboxStats()).toMatchObject({ threads: 0, completed: 0 });
  });

  it('Plain field paths, arithmetic and comparisons are resolved on the calling thread with the same result and bounds, without a thread', async () => {
    const params = { subject: 'Re: {{ trigger.subject }}', total: '{{ nodes.set1.total * 2 + 1 }}', big: '{{ trigger.items[0] }}', who: '{{ {"name": input.name, "vip": input.name in ["Ann"]} }}' };
    const { value } = await resolveParamsInSandbox({ subject: params.subject, total: params.total, who: params.who }, scope);
    expect(value).toEqual((await resolveParams({ subject: params.subject, total: params.total, who: params.who }, scope)).value);
    expect(value).toEqual({ subject: 'Re: Invoice 42', total: 15, who: { name: 'Ann', vip: true } });
    expect(expressionSandboxStats()).toMatchObject({ threads: 0, completed: 0 });
    // A filter is a loop: that step goes to a thread.
    await expect(resolveParamsInSandbox({ big: params.big }, scope)).resolves.toMatchObject({ value: { big: 3 } });
    expect(expressionSandboxStats()).toMatchObject({ completed: 1 });
  });

  it('A failing expression fails expression_error naming its own path, not the first one', async () => {
    const params = { a: '{{ trigger.subject }}', b: { c: ["{{ ($f := function($s,$n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $length($f('abcdefgh', 22))) }}"] } };
    await expect(resolveParamsInSandbox(params, scope)).rejects.toMatchObject({
      code: 'expression_error',
      kind: 'permanent',
      details: { path: 'params.b.c[0]' },
      message: expect.stringContaining('params.b.c[0]'),
    });
  });

  it('An expression still running past the hard limit has its thread terminated: expression_error naming the path, a new thread, and the event loop turned meanwhile', async () => {
    const outcome = resolveParamsInSandbox({ first: '{{ trigger.subject }}', second: { deep: runaway } }, scope);
    const turns = await turnsDuring(outcome);
    await expect(outcome).rejects.toMatchObject({
      code: 'expression_error',
      kind: 'permanent',
      details: { path: 'params.second.deep' },
      message: expect.stringMatching(/^Expression in params\.second\.deep: it ran longer than 750 ms and was stopped\.$/),
    });
    // The whole time, this thread's event loop kept going (in process it would not turn once).
    expect(turns).toBeGreaterThan(20);
    expect(expressionSandboxStats()).toMatchObject({ threadsLost: 1 });
    const startedBefore = expressionSandboxStats().threadsStarted;
    await expect(resolveParamsInSandbox({ again: '{{ $uppercase(input.name) }}' }, scope)).resolves.toMatchObject({ value: { again: 'ANN' } });
    expect(expressionSandboxStats().threadsStarted).toBeGreaterThanOrEqual(startedBefore);
    expect(expressionSandboxStats().threads).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("An expression exhausting its thread's heap fails expression_error naming the path; the thread is replaced", async () => {
    // The string bound makes a real expression hit the time budget long before 32 MB: a stand-in thread exhausts it.
    overrideExpressionSandboxForTests({ heapMb: 32, threads: 1, workerFile: misbehaving, hardLimitMs: 60_000 });
    await expect(resolveParamsInSandbox({ list: [stand('fine'), stand('exhaust')] }, scope)).rejects.toMatchObject({
      code: 'expression_error',
      kind: 'permanent',
      details: { path: 'params.list[1]' },
      message: 'Expression in params.list[1]: it needed more memory than an expression may use (32 MB).',
    });
    expect(expressionSandboxStats()).toMatchObject({ threadsLost: 1 });
    await expect(resolveParamsInSandbox({ again: stand('next') }, scope)).resolves.toEqual({ value: { again: stand('next') }, masked: { again: stand('next') } });
    expect(expressionSandboxStats().threadsStarted).toBe(2);
  }, 60_000);

  it('A thread that never answers is terminated at the hard limit, measured from when its expression began', async () => {
    overrideExpressionSandboxForTests({ threads: 1, workerFile: misbehaving, hardLimitMs: 300 });
    await expect(resolveParamsInSandbox({ a: stand('fine'), b: stand('spin') }, scope)).rejects.toMatchObject({
      code: 'expression_error',
      details: { path: 'params.b' },
      message: 'Expression in params.b: it ran longer than 300 ms and was stopped.',
    });
    await expect(resolveParamsInSandbox({ again: stand('next') }, scope)).resolves.toMatchObject({ value: { again: stand('next') } });
  }, 60_000);

  it('A full waiting line fails the step transiently (it is retried), never queueing without bound', async () => {
    configure({ EXPRESSION_THREADS: '1', EXPRESSION_QUEUE: '0' });
    const first = resolveParamsInSandbox({ a: '{{ $uppercase(trigger.subject) }}' }, scope);
    await expect(resolveParamsInSandbox({ b: '{{ $uppercase(trigger.subject) }}' }, scope)).rejects.toMatchObject({ code: 'expression_error', kind: 'transient', details: { reason: 'busy' } });
    await expect(first).resolves.toMatchObject({ value: { a: 'INVOICE 42' } });
  });
});
