/**
 * What a sandbox thread does with one task: resolve a step's expression strings, in order, against
 * its scope, with the same functions as everywhere else (server/engine/expressions). Before each
 * expression it writes, in the task's shared progress slots, which string it is on and when that
 * expression began, so the main thread can stop a runaway and, after terminating the thread, name
 * the parameter path.
 */
import { NodeFailure } from '../../contract/failures';
import { plainData, resolveText, type ExpressionSite } from '..';

/** Slots of `SandboxTask.progress` (an Int32Array over a SharedArrayBuffer). */
export const progressSlot = {
  /** Index in `sites` of the string being resolved; -1 until the thread takes the task. */
  site: 0,
  /** When the current expression began, in ms after `sentAt`. */
  startedMs: 1,
} as const;

export interface SandboxTask {
  sites: ExpressionSite[];
  scope: unknown;
  progress: Int32Array;
  /** `Date.now()` on the main thread when the task was handed over (the wall clock is shared). */
  sentAt: number;
}

export interface SandboxFailure {
  code: string;
  kind: 'transient' | 'permanent';
  message: string;
  details: Record<string, unknown>;
}

export type SandboxAnswer = { values: unknown[] } | { failure: SandboxFailure };

/**
 * Small expressions, so the first real one does not pay for loading: JSONata's built-ins, and the
 * regular expression engine (RE2JS's first pattern costs 100+ ms on its own, which pushed the first
 * invoice of the starter template past the 250 ms limit on a busy machine: issue 19 §2).
 */
export async function warmUp(): Promise<void> {
  await resolveText('{{ $string($count([1, 2]) & "x") }}', plainData({}), 'params');
  await resolveText('{{ $match("Invoice F-1, EUR 8.40", /(?:invoice|facture)[^a-z0-9]*([a-z0-9-]+)|[0-9][0-9.,]*/i) }}', plainData({}), 'params');
}

export async function resolveSites(task: SandboxTask): Promise<SandboxAnswer> {
  const { sites, progress, sentAt } = task;
  const mark = (index: number) => {
    // Time first: a reader that sees the new index also sees its start time (or a later one).
    Atomics.store(progress, progressSlot.startedMs, Date.now() - sentAt);
    Atomics.store(progress, progressSlot.site, index);
  };
  // Copying the scope counts as the first expression's time.
  mark(0);
  const scope = plainData(task.scope);
  const values: unknown[] = [];
  for (let index = 0; index < sites.length; index += 1) {
    const site = sites[index];
    try {
      values.push(await resolveText(site.text, scope, site.path, () => mark(index)));
    } catch (error) {
      if (error instanceof NodeFailure) return { failure: { code: error.code, kind: error.kind, message: error.message, details: error.details } };
      // JSONata turns its own faults into NodeFailures already; anything else still belongs to this expression.
      return { failure: { code: 'expression_error', kind: 'permanent', message: `Expression in ${site.path}: the expression could not be evaluated.`, details: { path: site.path } } };
    }
  }
  return { values };
}
