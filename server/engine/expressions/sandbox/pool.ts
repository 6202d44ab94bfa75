/**
 * The expression sandbox: a step's expressions are evaluated on worker threads (piscina, entry
 * `sandbox-worker.mjs`), never on the runner's event loop. JSONata checks its time budget only
 * between evaluation steps and one built-in can work for seconds (an O(n²) `$distinct`); on a thread,
 * that costs the thread, not every other member's runs, syncs and sends.
 *
 * - Each thread has a bounded heap (EXPRESSION_HEAP_MB): an expression that exhausts it kills its
 *   thread only, and fails.
 * - A watchdog per task reads the task's shared progress slots (which parameter string, since when):
 *   an expression still running `expressionBudget.hardLimitMs` after it began has its thread
 *   terminated. Either way the step fails `expression_error` (permanent) naming the parameter path
 *   the thread was on, and piscina starts a replacement thread.
 * - EXPRESSION_THREADS threads; one task per thread is handed to piscina at a time and at most
 *   EXPRESSION_QUEUE wait (so the watchdog times an expression's own run, never its wait). Past that
 *   the step fails transiently (`expression_error`, retried) rather than queueing without bound.
 * - A thread's death never reaches the process: piscina reports it on the task, and its pool-level
 *   `error` event is logged.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { BoundedGate, GateFullError } from '../../../core/bounded-gate';
import { config } from '../../../core/config';
import { log } from '../../../core/log';
import { fail, NodeFailure, type FailureKind, type RunErrorCode } from '../../contract/failures';
import { expressionBudget } from '../budget';
import type { ExpressionSite } from '..';
import { progressSlot, type SandboxAnswer, type SandboxTask } from './thread-task';

interface SandboxSettings {
  threads: number;
  queue: number;
  heapMb: number;
  /** Terminate a thread whose expression has run this long. */
  hardLimitMs: number;
  workerFile: string;
}

function settingsOf(): SandboxSettings {
  const env = config();
  return {
    threads: env.EXPRESSION_THREADS ?? Math.max(2, Math.min(4, os.availableParallelism() - 1)),
    queue: env.EXPRESSION_QUEUE,
    heapMb: env.EXPRESSION_HEAP_MB,
    hardLimitMs: expressionBudget.hardLimitMs,
    workerFile: workerFile(),
    ...overrides,
  };
}

let overrides: Partial<SandboxSettings> = {};

/** Tests only: settings the environment cannot give (a small heap, a stand-in worker file). Takes effect at the next pool start. */
export function overrideExpressionSandboxForTests(values: Partial<SandboxSettings>): void {
  // A stand-in worker file would run any module on the threads: like the other test hooks, refused outside tests.
  if (!process.env.VITEST) throw new Error('Expression sandbox settings are overridden by tests only.');
  overrides = values;
}

/** The thread entry beside this file, or the same file under the working directory when this module was bundled elsewhere. */
function workerFile(): string {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox-worker.mjs');
  return existsSync(beside) ? beside : path.resolve(process.cwd(), 'server/engine/expressions/sandbox/sandbox-worker.mjs');
}

interface State {
  pool: Piscina<SandboxTask, SandboxAnswer>;
  settings: SandboxSettings;
  gate: BoundedGate;
  /** Threads started since the pool started (the first ones and every replacement). */
  threadsStarted: number;
  /** Threads stopped by the watchdog or lost to their heap limit. */
  threadsLost: number;
}

let state: State | null = null;

function started(): State {
  if (state) return state;
  const settings = settingsOf();
  const pool = new Piscina<SandboxTask, SandboxAnswer>({
    filename: settings.workerFile,
    // All threads kept warm (a thread takes a second or two to load): when one is terminated, the
    // others serve while its replacement starts.
    minThreads: settings.threads,
    maxThreads: settings.threads,
    // The thread needs none of this process's flags (its loader registers itself); admission is ours.
    execArgv: [],
    resourceLimits: {
      maxOldGenerationSizeMb: settings.heapMb,
      maxYoungGenerationSizeMb: Math.max(8, Math.min(64, Math.floor(settings.heapMb / 8))),
      stackSizeMb: 4,
    },
  });
  const current: State = { pool, settings, gate: new BoundedGate(settings.threads, settings.queue), threadsStarted: 0, threadsLost: 0 };
  pool.on('workerCreate', () => {
    current.threadsStarted += 1;
  });
  // A thread that dies with no task on it is reported here; unheard, the event would throw in this process.
  pool.on('error', (error: unknown) => log.error({ err: error }, 'an expression sandbox thread failed outside a task'));
  state = current;
  return current;
}

class HardLimitReached extends Error {
  constructor() {
    super('The expression ran past its hard time limit.');
    this.name = 'HardLimitReached';
  }
}

/**
 * Runs `task` on a thread while a watchdog reads its progress: once the thread has taken it, the
 * expression it is on may run `hardLimitMs`; then the thread is terminated (through the abort signal).
 */
function runWatched(current: State, task: SandboxTask, controller: AbortController): Promise<SandboxAnswer> {
  const { hardLimitMs } = current.settings;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const site = Atomics.load(task.progress, progressSlot.site);
    // Not taken yet (a replacement thread is still starting): look again later.
    const began = site < 0 ? Date.now() : task.sentAt + Atomics.load(task.progress, progressSlot.startedMs);
    const left = began + hardLimitMs - Date.now();
    if (site >= 0 && left <= 0) {
      controller.abort(new HardLimitReached());
      return;
    }
    timer = setTimeout(check, Math.max(10, left));
    timer.unref();
  };
  timer = setTimeout(check, hardLimitMs);
  timer.unref();
  return current.pool.run(task, { signal: controller.signal }).finally(() => clearTimeout(timer));
}

function expressionFailure(path: string, reason: string): NodeFailure {
  return fail.permanent('expression_error', { message: `Expression in ${path}: ${reason}`, details: { path } });
}

/**
 * The values of `sites` (strings holding expressions, in order) resolved against `scope` on a
 * sandbox thread. Throws the NodeFailure of the first string that fails.
 */
export async function evaluateSitesInSandbox(sites: ExpressionSite[], scope: unknown): Promise<unknown[]> {
  const current = started();
  const progress = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 2));
  Atomics.store(progress, progressSlot.site, -1);
  const controller = new AbortController();
  let answer: SandboxAnswer;
  try {
    answer = await current.gate.run(() => runWatched(current, { sites, scope, progress, sentAt: Date.now() }, controller));
  } catch (error) {
    if (error instanceof GateFullError) {
      throw fail.transient('expression_error', { message: 'Too many expressions are waiting for the sandbox; the step will try again.', details: { reason: 'busy' } });
    }
    const site = sites[Math.max(0, Atomics.load(progress, progressSlot.site))];
    if (controller.signal.aborted) {
      current.threadsLost += 1;
      log.warn({ path: site.path }, 'an expression ran past its hard time limit; its sandbox thread was terminated');
      throw expressionFailure(site.path, `it ran longer than ${current.settings.hardLimitMs} ms and was stopped.`);
    }
    if ((error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      current.threadsLost += 1;
      log.warn({ path: site.path }, 'an expression exhausted its sandbox thread’s memory');
      throw expressionFailure(site.path, `it needed more memory than an expression may use (${current.settings.heapMb} MB).`);
    }
    // Not the expression's doing (a thread that could not start, the pool closing): a temporary failure.
    log.error({ err: error }, 'the expression sandbox failed');
    throw fail.transient('internal');
  }
  if ('failure' in answer) {
    const { code, kind, message, details } = answer.failure;
    throw new NodeFailure(code as RunErrorCode, { kind: kind as FailureKind, message, details });
  }
  return answer.values;
}

/** Starts the threads now rather than at the first step with an expression (the runner's start). */
export function startExpressionSandbox(): void {
  started();
}

/** Counters for tests and the bench. */
export function expressionSandboxStats(): { threads: number; completed: number; running: number; waiting: number; threadsStarted: number; threadsLost: number } {
  if (!state) return { threads: 0, completed: 0, running: 0, waiting: 0, threadsStarted: 0, threadsLost: 0 };
  const { pool, gate, threadsStarted, threadsLost } = state;
  return { threads: pool.threads.length, completed: pool.completed, ...gate.load(), threadsStarted, threadsLost };
}

/** Stops the threads (the runner's orderly shutdown, tests); the next call starts a new pool. */
export async function closeExpressionSandbox(): Promise<void> {
  const current = state;
  state = null;
  if (current) await current.pool.destroy();
}
