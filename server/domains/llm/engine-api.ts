/**
 * What the engine's `ai` capability (server/engine-adapters/ai.ts) may use of the llm domain: the
 * routing, the member's own keys, budgets and usage records, and the network options of a call.
 * Re-exports only; the rest of the domain is its own.
 */
export { llmNetOptions } from './base-url';
export { memberChoice } from './member-endpoints';
export { endpointOf } from './repo';
export { isRefusal } from './resolve';
export { resolveForPurpose } from './routing';
export { enforceBudget, pricesOfModel, recordCallUsage } from './usage';
