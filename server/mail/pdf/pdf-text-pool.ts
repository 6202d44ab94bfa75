/**
 * The text of a PDF, read off the calling thread where a hostile document cannot hurt the process.
 * A PDF from the outside world is a program for a parser: deep object graphs, compression bombs,
 * endless page trees. PDF.js (`pdf-text-worker.mjs`) reads it on a piscina worker thread, and the
 * pool bounds what the thread may take:
 *
 * - time: PDF_TIMEOUT_MS per document (10 s), after which the thread is stopped and replaced;
 * - heap: a worker heap of `heapMb` (256 MB); exhausting it ends the thread, not the process;
 * - buffers: a worker's typed arrays live outside its heap limit (a Flate bomb inflates into them, and
 *   the thread's own `arrayBuffers` figure is not visible from here), so while a document is read a
 *   watchdog samples the process's resident memory every 20 ms and stops the thread once it grew
 *   `bufferMb` (512 MB) past where it was when the document started (PDF.js inflates at ≈ 60 MB/s,
 *   so the overshoot is a few MB);
 * - admission: one document at a time (PDFs are rare; the runner's cores are for runs), at most
 *   `queue` (8) waiting, beyond which a document is not read (`busy`).
 *
 * Never rejects: every outcome is `{ ok: false, reason, message }` with a sentence the AI node shows
 * as "could not read: …" (a thread that fails for another reason too, logged as an error).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { BoundedGate, GateFullError } from '../../core/bounded-gate';
import { log } from '../../core/log';

export interface PdfTextLimits {
  /** Pages read from the start (the rest are left out, `truncated`). */
  maxPages: number;
  /** Characters of text kept (`truncated` beyond). */
  maxChars: number;
}

export type PdfTextFailure = 'encrypted' | 'invalid' | 'unreadable' | 'timeout' | 'memory' | 'busy';

export type PdfTextResult =
  | { ok: true; text: string; pagesRead: number; totalPages: number; truncated: boolean }
  | { ok: false; reason: PdfTextFailure; message: string };

interface PoolSettings {
  queue: number;
  idleMs: number;
  timeoutMs: number;
  heapMb: number;
  bufferMb: number;
  workerFile: string;
}

const defaults = { queue: 8, idleMs: 30_000, timeoutMs: 10_000, heapMb: 256, bufferMb: 512 };

let overrides: Partial<PoolSettings> = {};

/** Tests only: a short time limit, a small heap or buffer budget, a stand-in worker. Takes effect at the next pool start. */
export function overridePdfPoolForTests(values: Partial<PoolSettings>): void {
  overrides = values;
}

/** The worker entry beside this file, or under the working directory when this module was bundled elsewhere. */
function workerFile(): string {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pdf-text-worker.mjs');
  return existsSync(beside) ? beside : path.resolve(process.cwd(), 'server/mail/pdf/pdf-text-worker.mjs');
}

interface Task {
  bytes: Uint8Array;
  maxPages: number;
  maxChars: number;
}

interface State {
  pool: Piscina<Task, PdfTextResult>;
  settings: PoolSettings;
  gate: BoundedGate;
}

let state: State | null = null;

function started(): State {
  if (state) return state;
  const settings: PoolSettings = { ...defaults, workerFile: workerFile(), ...overrides };
  const pool = new Piscina<Task, PdfTextResult>({
    filename: settings.workerFile,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: settings.idleMs,
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: settings.heapMb, maxYoungGenerationSizeMb: 32 },
  });
  state = { pool, settings, gate: new BoundedGate(1, settings.queue) };
  return state;
}

const sentences: Record<Exclude<PdfTextFailure, 'encrypted' | 'invalid' | 'unreadable'>, string> = {
  timeout: 'reading it took too long',
  memory: 'reading it needed too much memory',
  busy: 'too many documents are being read right now',
};

/** Stops the task when the process's resident memory grows `budget` bytes past where it was at its start. */
function watchBuffers(controller: AbortController, budget: number): () => void {
  const baseline = process.memoryUsage.rss();
  const timer = setInterval(() => {
    if (process.memoryUsage.rss() - baseline > budget) controller.abort(new MemoryBudgetError());
  }, 20);
  timer.unref();
  return () => clearInterval(timer);
}

class MemoryBudgetError extends Error {
  constructor() {
    super('buffer budget exceeded');
    this.name = 'MemoryBudgetError';
  }
}

/** The text of a PDF's first pages. Never rejects for the document (see the module's comment). */
export async function pdfTextInPool(bytes: Uint8Array, limits: PdfTextLimits): Promise<PdfTextResult> {
  const { pool, settings, gate } = started();
  const task: Task = { bytes, maxPages: limits.maxPages, maxChars: limits.maxChars };
  try {
    return await gate.run(async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new TimeLimitError()), settings.timeoutMs);
      const stopWatching = watchBuffers(controller, settings.bufferMb * 1024 * 1024);
      try {
        return await pool.run(task, { signal: controller.signal });
      } finally {
        clearTimeout(timer);
        stopWatching();
      }
    });
  } catch (error) {
    if (error instanceof GateFullError) return failure('busy');
    // piscina's AbortError carries the abort's reason as its cause.
    const reason = (error as { name?: string; code?: string; cause?: unknown } | null) ?? {};
    const overBudget = reason.name === 'AbortError' && reason.cause instanceof MemoryBudgetError;
    const kind: PdfTextFailure | null = overBudget || reason.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : reason.name === 'AbortError' ? 'timeout' : null;
    if (kind) {
      log.warn({ bytes: bytes.byteLength, reason: kind }, 'PDF text could not be read; its thread was replaced');
      return failure(kind);
    }
    // The thread itself failed (its entry threw, it exited): a bug to see in the log, but still one
    // document's note, never a failed run.
    log.error({ bytes: bytes.byteLength, err: error instanceof Error ? error.message : String(error) }, 'the PDF text thread failed');
    return { ok: false, reason: 'unreadable', message: 'the PDF reader stopped' };
  }
}

class TimeLimitError extends Error {
  constructor() {
    super('time limit');
    this.name = 'TimeLimitError';
  }
}

function failure(reason: keyof typeof sentences): PdfTextResult {
  return { ok: false, reason, message: sentences[reason] };
}

/** Stops the thread (shutdown, tests); the next call starts a new pool. */
export async function closePdfPool(): Promise<void> {
  const current = state;
  state = null;
  if (current) await current.pool.destroy();
}
