/**
 * Undo/redo as snapshots of the edited graph (a 200-node graph is small; immutable edits share what
 * did not change). `limit` bounds memory; a new edit after undoing drops the redo branch. Typing is one
 * step, not one per keystroke: an edit recorded with the same merge key as the previous one (the same
 * field of the same node) less than `mergeWindowMs` after it replaces the present instead of adding.
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** The last edit's merge key and time, while a burst of it may go on (cleared by undo and redo). */
  last?: Merge;
}

export interface Merge {
  key: string;
  at: number;
}

export const historyLimit = 100;
export const mergeWindowMs = 1_000;

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

export function record<T>(history: History<T>, next: T, merge?: Merge): History<T> {
  if (Object.is(next, history.present)) return history;
  const last = history.last;
  if (merge && last && last.key === merge.key && merge.at - last.at < mergeWindowMs && history.past.length > 0) {
    return { past: history.past, present: next, future: [], last: merge };
  }
  return { past: [...history.past, history.present].slice(-historyLimit), present: next, future: [], ...(merge ? { last: merge } : {}) };
}

/** The merge key of an edit of some fields of an item: the item and the top-level fields that changed. */
export function mergeKeyOf(item: string, before: Record<string, unknown>, after: Record<string, unknown>): string {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changed = [...keys].filter((key) => !Object.is(before[key], after[key]) && JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return `${item}:${changed.sort().join(',')}`;
}

export function undo<T>(history: History<T>): History<T> {
  if (history.past.length === 0) return history;
  return { past: history.past.slice(0, -1), present: history.past[history.past.length - 1], future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  if (history.future.length === 0) return history;
  return { past: [...history.past, history.present], present: history.future[0], future: history.future.slice(1) };
}

/** The server's copy replaced ours (another tab, a restore): history restarts from it. */
export function reset<T>(present: T): History<T> {
  return startHistory(present);
}
