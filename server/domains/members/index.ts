/**
 * The members domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { memberSchema, nameInput } from './schemas';
export { presentMember } from './present';
export { memberFootprint } from './footprint';
export { admitInvitee, isInvitationUsable } from './service';
export { purgeStaleInvitations } from './housekeeping';
export { findActiveAdminIds } from './repo';
