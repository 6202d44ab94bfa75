/**
 * The review domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { presentReviewItem, reviewItemSchema } from './item';
export { rejectReviewItem } from './decide';
export { findItemStates } from './repo';
