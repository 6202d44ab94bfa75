/**
 * The provider layer for AI calls (server/core/ai/): callModel, listModels, testEndpoint over the AI
 * SDK, every request through the network guard, every failure one classified AiCallError.
 */
export { callModel } from './call-model';
export { AiCallError, classifyAiError, failureFamily, isAiCallError, retryAfterMsOf, type AiErrorCode, type AiErrorKind } from './errors';
export { listModels } from './list-models';
export { aiProviderFacts, baseUrlOf, type AiModelListing, type AiProviderFacts, type AiWireProtocol } from './providers';
export { testEndpoint, type AiEndpointTest } from './test-endpoint';
export * from './types';
