/**
 * Entry of an expression sandbox thread (piscina). Plain JavaScript so a bare worker thread can load
 * it wherever the pool runs: under `tsx` (the runner, `npx tsx` scripts) and under vitest, neither of
 * which carries its TypeScript loader into worker threads reliably. It registers tsx's loader for its
 * own imports only (a namespace), then loads the TypeScript task.
 */
import { register } from 'tsx/esm/api';

const loader = register({ namespace: 'mailflow-expression-worker' });
const { resolveSites } = await loader.import('./thread-task.ts', import.meta.url);

/** One task: a step's expression strings and its scope → their values, or the failure of one. */
export default function evaluate(task) {
  return resolveSites(task);
}
