/**
 * What the engine's `send` capability (server/engine-adapters/send.ts) may use of the outbound domain:
 * one outbound item, keyed, with the run as its source. Re-exports only.
 */
export { createOutbound } from './create';
