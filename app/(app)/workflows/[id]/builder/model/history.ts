/**
 * Undo/redo as snapshots of the edited graph (a 200-node graph is small; immutable edits share what
 * did not change). `limit` bounds memory; a new edit after undoing drops the redo branch.
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
}

export const historyLimit = 100;

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

export function record<T>(history: History<T>, next: T): History<T> {
  if (Object.is(next, history.present)) return history;
  return { past: [...history.past, history.present].slice(-historyLimit), present: next, future: [] };
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
