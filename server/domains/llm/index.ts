/**
 * The llm domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { aiProviders, baseUrlRequired, keylessProviders } from './catalogue';
export { aiProvider, connectionTestOutput } from './schemas';
export { checkBaseUrl, llmNetOptions } from './base-url';
export { tryEndpoint } from './connection-test';
export { monthOf } from './cost';
export type { MonthWindow } from './cost';
export { endpointOf } from './repo';
export { isRefusal } from './resolve';
export type { ModelChoice, ModelRequest, RoutableConnection } from './resolve';
export { resolveForPurpose } from './routing';
export { currentBudgets, enforceBudget, recordUsage, spentUsdSql } from './usage';
