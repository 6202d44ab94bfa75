/**
 * The dashboard domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { reconcileDashboardRollups } from './rollups/reconcile';
export { foldRunRollupIncrements } from './repo-rollups';
