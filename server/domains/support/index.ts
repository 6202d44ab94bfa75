/**
 * The support domain's public face: what other domains, the runner and the HTTP layer may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
// The sync with the operator's control plane (server/domains/support/sync/, the runner's task) reads and
// writes the database through this store.
export { supportSyncStore } from './sync-store';
export { isLinked } from './service';
// The wire to the operator's control plane (sync/): the runner's job and the operator's branding.
export { syncSupport, SUPPORT_SYNC_JOB_KEY } from './sync/job';
export { operatorBranding, withOperatorBranding } from './sync/branding';
