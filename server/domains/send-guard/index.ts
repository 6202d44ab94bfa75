/**
 * The send-guard domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { evaluateSendGuard } from './evaluate';
export { guardLimits } from './limits';
export { readGuard, type GuardedItem } from './reading';
export { lockScopesOfItemStatements } from './repo';
