/**
 * Whether the process's memory returns to its level after the fuzz.
 *
 * Method: V8's garbage collector is reached without restarting the worker with --expose-gc:
 * `v8.setFlagsFromString('--expose-gc')` makes the next new context carry a `gc` function, which
 * `vm.runInNewContext('gc')` hands back. Before each reading the event loop is let run (pending
 * responses, streams and timers finish), then a full collection runs a few times; the reading is
 * `heapUsed` (JavaScript objects) and `external` (Buffers and ArrayBuffers: request and response bytes).
 * Without a gc function (a runtime that refuses the flag), readings are taken after the same settling
 * with a larger tolerance. The baseline is read after a warm-up round that loads every module and
 * fills the caches that are meant to stay (the OpenAPI document, Prisma's query plans, zod's), so the
 * difference is what the fuzz left behind.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';

export interface MemoryReading {
  heapUsed: number;
  external: number;
  rss: number;
  forcedGc: boolean;
}

let collector: (() => void) | null | undefined;

function gcFunction(): (() => void) | null {
  if (collector !== undefined) return collector;
  const global = globalThis as { gc?: () => void };
  if (typeof global.gc === 'function') return (collector = global.gc);
  try {
    v8.setFlagsFromString('--expose-gc');
    const fn = vm.runInNewContext('gc') as unknown;
    collector = typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    collector = null;
  }
  return collector;
}

export async function settledMemory(): Promise<MemoryReading> {
  const gc = gcFunction();
  for (let round = 0; round < 4; round++) {
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    await new Promise((resolve) => setTimeout(resolve, 25));
    gc?.();
  }
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, external: usage.external, rss: usage.rss, forcedGc: Boolean(gc) };
}

/** Heap in use right now, no collection: for the peak seen during the run. */
export function currentHeap(): number {
  return process.memoryUsage().heapUsed;
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
