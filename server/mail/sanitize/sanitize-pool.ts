/**
 * Mail HTML sanitised off the calling thread. DOMPurify over jsdom takes hundreds of milliseconds for
 * a large newsletter; on the web process's event loop that would stall every other request, so the
 * work runs in a piscina pool of worker threads (`sanitize-worker.mjs`), each with its own jsdom
 * window and DOMPurify instance, created lazily on the first call.
 *
 * Bounds (environment, `.env.example`): SANITIZE_THREADS threads (default CPUs - 1, 1 to 4); at most
 * SANITIZE_QUEUE bodies waiting for one, beyond which a call is refused at once with 503
 * `internal.busy` (Retry-After 1); SANITIZE_TIMEOUT_SECONDS per body, after which its thread is
 * stopped and replaced and the body is shown as an empty document marked `truncated` (so is a body
 * whose thread ran out of memory); threads beyond the first exit after SANITIZE_IDLE_SECONDS idle.
 *
 * `sanitizeCached` adds a byte-bounded LRU (SANITIZE_CACHE_MB) keyed by the message, the sanitiser's
 * version and `allowRemoteImages`, and joins concurrent calls for the same key to one task.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { BoundedGate, GateFullError } from '../../core/bounded-gate';
import { config } from '../../core/config';
import { busyError } from '../../core/errors/app-error';
import { log } from '../../core/log';
import { emptyDocument, SANITIZER_VERSION, type SanitizedHtml, type SanitizeOptions } from './sanitize-contract';
import { ByteBudgetLru } from './sanitize-cache';

/** Heap of one sanitising thread: a 2 MiB body of small elements needs a few hundred MB in jsdom. */
const threadHeapMb = 1_024;
/** Cache keys longer than this (not a message id) are not cached. */
const maxKeyChars = 256;

interface PoolSettings {
  threads: number;
  queue: number;
  idleMs: number;
  timeoutMs: number;
  cacheBytes: number;
  heapMb: number;
  workerFile: string;
}

function settingsOf(): PoolSettings {
  const env = config();
  return {
    threads: env.SANITIZE_THREADS ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
    queue: env.SANITIZE_QUEUE,
    idleMs: env.SANITIZE_IDLE_SECONDS * 1000,
    timeoutMs: env.SANITIZE_TIMEOUT_SECONDS * 1000,
    cacheBytes: env.SANITIZE_CACHE_MB * 1024 * 1024,
    heapMb: threadHeapMb,
    workerFile: workerFile(),
    ...overrides,
  };
}

let overrides: Partial<PoolSettings> = {};

/**
 * Tests only: settings the environment cannot give (a time limit under a second, a small heap, a
 * stand-in worker file that misbehaves on purpose). Takes effect at the next pool start.
 */
export function overrideSanitizePoolForTests(values: Partial<PoolSettings>): void {
  overrides = values;
}

/**
 * The worker entry beside this file; when this module was bundled elsewhere (Next's server build),
 * the same file under the working directory, which is the repository root in every start script.
 */
function workerFile(): string {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sanitize-worker.mjs');
  return existsSync(beside) ? beside : path.resolve(process.cwd(), 'server/mail/sanitize/sanitize-worker.mjs');
}

interface Task {
  html: string;
  allowRemoteImages: boolean;
}

interface State {
  pool: Piscina<Task, SanitizedHtml>;
  settings: PoolSettings;
  /**
   * One task per thread handed to piscina at a time, the rest wait here (bounded): so the time
   * limit counts a body's own sanitising, never its wait behind others.
   */
  gate: BoundedGate;
  cache: ByteBudgetLru<SanitizedHtml> | null;
  pending: Map<string, Promise<SanitizedHtml>>;
  hits: number;
  misses: number;
}

let state: State | null = null;

function started(): State {
  if (state) return state;
  const settings = settingsOf();
  const pool = new Piscina<Task, SanitizedHtml>({
    filename: settings.workerFile,
    minThreads: 1,
    maxThreads: settings.threads,
    idleTimeout: settings.idleMs,
    // The thread needs none of this process's flags (its loader registers itself); admission is ours.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: settings.heapMb },
  });
  const cache = settings.cacheBytes > 0 ? new ByteBudgetLru<SanitizedHtml>(settings.cacheBytes, (result) => result.html.length * 2) : null;
  state = { pool, settings, gate: new BoundedGate(settings.threads, settings.queue), cache, pending: new Map(), hits: 0, misses: 0 };
  return state;
}

const failed = (): SanitizedHtml => Object.freeze({ html: emptyDocument, hasRemoteImages: false, truncated: true });

/** A task's outcome; `cacheable` is false for the fallback given when the body could not be sanitised. */
async function runTask(current: State, html: string, options: SanitizeOptions): Promise<{ result: SanitizedHtml; cacheable: boolean }> {
  const { settings, pool, gate } = current;
  const task: Task = { html: typeof html === 'string' ? html : '', allowRemoteImages: options.allowRemoteImages === true };
  try {
    const result = await gate.run(() => pool.run(task, { signal: AbortSignal.timeout(settings.timeoutMs) }));
    return { result: Object.freeze(result), cacheable: true };
  } catch (error) {
    if (error instanceof GateFullError) throw busyError(1, { reason: 'sanitizer' });
    const reason = (error as { name?: string; code?: string } | null) ?? {};
    // The body's own fault (too slow, too big): shown empty. Anything else is a bug and propagates.
    if (reason.name === 'AbortError' || reason.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      log.warn({ chars: html.length, reason: reason.name === 'AbortError' ? 'time limit' : 'out of memory' }, 'mail HTML body could not be sanitised; shown empty');
      return { result: failed(), cacheable: false };
    }
    throw error;
  }
}

/**
 * `sanitizeMailHtml(html, options)` on a pool thread. Rejects with 503 `internal.busy` when the
 * waiting line is full; never rejects because of the body itself.
 */
export async function sanitizeInPool(html: string, options: SanitizeOptions = {}): Promise<SanitizedHtml> {
  return (await runTask(started(), html, options)).result;
}

/**
 * `sanitizeInPool` through the per-process cache. `key` names the body (the message id): the same
 * key must always come with the same HTML. Results are frozen (they are shared between callers).
 */
export async function sanitizeCached(key: string, html: string, options: SanitizeOptions = {}): Promise<SanitizedHtml> {
  const current = started();
  if (!current.cache || key.length > maxKeyChars) return (await runTask(current, html, options)).result;
  const cacheKey = `${SANITIZER_VERSION}\u0000${options.allowRemoteImages === true ? 'remote' : 'blocked'}\u0000${key}`;
  const hit = current.cache.get(cacheKey);
  if (hit) {
    current.hits += 1;
    return hit;
  }
  const joined = current.pending.get(cacheKey);
  if (joined) {
    current.hits += 1;
    return joined;
  }
  current.misses += 1;
  const cache = current.cache;
  const work = runTask(current, html, options)
    .then(({ result, cacheable }) => {
      if (cacheable) cache.set(cacheKey, result);
      return result;
    })
    .finally(() => current.pending.delete(cacheKey));
  current.pending.set(cacheKey, work);
  return work;
}

/** Counters for tests and benchmarks. */
export function sanitizePoolStats(): {
  threads: number;
  completed: number;
  running: number;
  waiting: number;
  cache: { entries: number; bytes: number; hits: number; misses: number } | null;
} {
  if (!state) return { threads: 0, completed: 0, running: 0, waiting: 0, cache: null };
  const { pool, cache, hits, misses, gate } = state;
  return { threads: pool.threads.length, completed: pool.completed, ...gate.load(), cache: cache ? { ...cache.stats(), hits, misses } : null };
}

/** Stops the threads and forgets the cache (shutdown, tests); the next call starts a new pool. */
export async function closeSanitizePool(): Promise<void> {
  const current = state;
  state = null;
  if (current) await current.pool.destroy();
}
