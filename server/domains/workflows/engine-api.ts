/**
 * What the engine's adapters (server/engine-adapters/) may use of the workflows domain: whether a
 * workflow's settings let its mail nodes send without review. Re-exports only.
 */
export { sendsWithoutReview } from './present';
