/**
 * The workflows domain's public face: what other domains, the HTTP layer and the runner may import from it
 * (ESLint refuses their imports of any other file here). Re-exports only; the code lives in the files named.
 */
export { freeJsonProblem, storedGraphInput } from './schemas';
export { draftOf, readGraph } from './present';
export { assertGraphScopes, assertGraphsScopes, needFor, withGraphScopeRule } from './graph-scopes';
export { disarmMailboxWorkflows, mailboxWorkflowFootprint, publishedWorkflowCounts, unpublishMemberWorkflows } from './links';
export { findOwnedOrThrow, lockOwnedOrThrow } from './repo';
export { assertValidGraph, createWorkflow, putGraph } from './service';
