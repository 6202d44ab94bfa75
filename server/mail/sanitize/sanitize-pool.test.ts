import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { isAppError } from '../../core/errors/app-error';
import { sanitizeMailHtml } from './sanitize-html';
import { closeSanitizePool, overrideSanitizePoolForTests, sanitizeCached, sanitizeInPool, sanitizePoolStats } from './sanitize-pool';

const hostile = '<p onclick="alert(1)">hi <img src="https://t.example/p.gif"><script>alert(1)</script><a href="javascript:x">x</a></p>';
const settings = ['SANITIZE_THREADS', 'SANITIZE_QUEUE', 'SANITIZE_CACHE_MB'] as const;

function configure(values: Partial<Record<(typeof settings)[number], string>>): void {
  for (const name of settings) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
  resetConfigForTests();
}

beforeEach(async () => {
  await closeSanitizePool();
  configure({});
});
afterEach(async () => {
  overrideSanitizePoolForTests({});
  await closeSanitizePool();
});
afterAll(() => {
  configure({});
});

describe('sanitizeInPool', () => {
  it('answers what sanitizeMailHtml answers, from a worker thread', async () => {
    expect(await sanitizeInPool(hostile)).toEqual(sanitizeMailHtml(hostile));
    expect(await sanitizeInPool(hostile, { allowRemoteImages: true })).toEqual(sanitizeMailHtml(hostile, { allowRemoteImages: true }));
    expect(sanitizePoolStats()).toMatchObject({ completed: 2 });
  });

  it('runs bodies side by side on several threads', async () => {
    configure({ SANITIZE_THREADS: '2' });
    const bodies = Array.from({ length: 6 }, (_, index) => `<p>mail ${index}</p>`);
    const results = await Promise.all(bodies.map((body) => sanitizeInPool(body)));
    expect(results.map((result) => result.html)).toEqual(bodies.map((body) => `<html><head></head><body>${body}</body></html>`));
    expect(sanitizePoolStats().threads).toBe(2);
  });

  it('refuses at once with 503 internal.busy beyond the threads and the waiting line', async () => {
    configure({ SANITIZE_THREADS: '1', SANITIZE_QUEUE: '2' });
    const calls = Array.from({ length: 6 }, (_, index) => sanitizeInPool(`<p>${index}</p>`).then(() => 'done', (error: unknown) => error));
    const outcomes = await Promise.all(calls);
    expect(outcomes.slice(0, 3)).toEqual(['done', 'done', 'done']);
    for (const refused of outcomes.slice(3)) {
      expect(isAppError(refused) && refused.code).toBe('internal.busy');
      expect(isAppError(refused) && refused.headers['Retry-After']).toBe('1');
    }
    // The line is free again once the admitted calls are done.
    await expect(sanitizeInPool('<p>again</p>')).resolves.toMatchObject({ truncated: false });
  });
});

describe('sanitizeInPool: a body that cannot be sanitised', () => {
  const misbehaving = fileURLToPath(new URL('./fixtures/misbehaving-worker.mjs', import.meta.url));
  const emptyAndTruncated = { html: '<html><head></head><body></body></html>', hasRemoteImages: false, truncated: true };

  it('is given up at the time limit and shown empty; its thread is replaced', async () => {
    // The limit also covers the replacement thread's start for the next body: a second leaves room for
    // that start on a loaded machine (at 200 ms the next body was seen given up too, load average 9).
    overrideSanitizePoolForTests({ workerFile: misbehaving, timeoutMs: 1_000, threads: 1 });
    await expect(sanitizeInPool('spin')).resolves.toEqual(emptyAndTruncated);
    await expect(sanitizeInPool('<p>next</p>')).resolves.toMatchObject({ html: '<html><head></head><body><p>next</p></body></html>' });
  });

  it("is shown empty when it exhausts its thread's heap; the thread is replaced", async () => {
    overrideSanitizePoolForTests({ workerFile: misbehaving, heapMb: 32, threads: 1 });
    await expect(sanitizeInPool('exhaust')).resolves.toEqual(emptyAndTruncated);
    await expect(sanitizeInPool('<p>next</p>')).resolves.toMatchObject({ truncated: false });
  });

  it('is not cached, so a later call tries again', async () => {
    overrideSanitizePoolForTests({ workerFile: misbehaving, timeoutMs: 200, threads: 1 });
    await sanitizeCached('message-spin', 'spin');
    expect(sanitizePoolStats().cache).toMatchObject({ entries: 0 });
  });

  it('rejects with the error when the sanitiser itself fails (a bug, answered 500)', async () => {
    overrideSanitizePoolForTests({ workerFile: misbehaving, threads: 1 });
    await expect(sanitizeInPool('throw')).rejects.toThrow('a bug in the sanitiser');
  });
});

describe('sanitizeCached', () => {
  it('sanitises a message once and answers the next calls from memory', async () => {
    const first = await sanitizeCached('message-1', hostile);
    const second = await sanitizeCached('message-1', hostile);
    expect(second).toBe(first);
    expect(Object.isFrozen(second)).toBe(true);
    expect(sanitizePoolStats()).toMatchObject({ completed: 1, cache: { hits: 1, misses: 1, entries: 1 } });
  });

  it('keeps remote-images-allowed apart from blocked', async () => {
    const blocked = await sanitizeCached('message-2', hostile);
    const allowed = await sanitizeCached('message-2', hostile, { allowRemoteImages: true });
    expect(blocked.html).toContain('data-remote-src="https://t.example/p.gif"');
    expect(allowed.html).toContain('src="https://t.example/p.gif"');
    expect(sanitizePoolStats()).toMatchObject({ completed: 2, cache: { hits: 0, misses: 2, entries: 2 } });
  });

  it('joins concurrent calls for the same message to one task', async () => {
    const results = await Promise.all([1, 2, 3].map(() => sanitizeCached('message-3', hostile)));
    expect(new Set(results).size).toBe(1);
    expect(sanitizePoolStats()).toMatchObject({ completed: 1, cache: { hits: 2, misses: 1 } });
  });

  it('goes to the pool every time with the cache turned off', async () => {
    configure({ SANITIZE_CACHE_MB: '0' });
    await sanitizeCached('message-4', hostile);
    await sanitizeCached('message-4', hostile);
    expect(sanitizePoolStats()).toMatchObject({ completed: 2, cache: null });
  });
});
