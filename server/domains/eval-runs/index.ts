/**
 * The evaluation runs domain's public face: what other domains and the runner may import from it (ESLint refuses
 * their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { driveEvalRun } from './drive';
export { sweepEvalRuns } from './sweeper';
