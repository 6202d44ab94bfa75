/**
 * Entry of an expression sandbox thread (piscina). Plain JavaScript so a bare worker thread can load
 * it wherever the pool runs: under `tsx` (the runner, `npx tsx` scripts) and under vitest, neither of
 * which carries its TypeScript loader into worker threads reliably. It registers tsx's loader for its
 * own imports only (a namespace), then loads the TypeScript task.
 */
import { register } from 'tsx/esm/api';

const loader = register({ namespace: 'mailflow-expression-worker' });
const { resolveSites, warmUp } = await loader.import('./thread-task.ts', import.meta.url);
// Before the thread counts as ready: a first expression loads JSONata's built-ins and warms the JIT, which
// would otherwise count against the first real expression's time limit.
await warmUp();

/** One task: a step's expression strings and its scope → their values, or the failure of one. */
export default function evaluate(task) {
  return resolveSites(task);
}
