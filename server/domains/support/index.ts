/**
 * The support domain's public face: re-exports only (ESLint refuses other domains', the HTTP layer's and the
 * runner's imports of any other file here).
 */
// The wire to the operator's control plane (sync/, lane sup-sync).
export { syncSupport, SUPPORT_SYNC_JOB_KEY } from './sync/job';
export { operatorBranding, withOperatorBranding } from './sync/branding';
