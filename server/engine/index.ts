/**
 * The engine's one public entry: what the domains (and the adapters of server/engine-adapters) may use
 * of the workflow engine. Domains import this file and, for shapes they share with the engine (the graph,
 * the node SDK, limits), `server/engine/contract/`; nothing else of `server/engine` (lint:
 * eslint.config.mjs, "engine layering"). The runner is the engine's plumbing and its tests may reach inside.
 *
 * Re-exports only: the behaviour lives in the modules named.
 */

// Composition: what the composition root hands the engine (capabilities, run-end hooks, the dispatcher's reads).
export { composeEngineWith } from './composition';
export type { CapabilityFactory, CapabilityRun, EngineComposition, EngineReads, RunEndHooks, RunFailure } from './composition';

// Runs: start, cancel, replay, resume a waiting step, the room for runs holding no slot.
export { startExecution } from './run/start';
export type { StartExecutionInput, StartedBy } from './run/start';
export { cancelExecutions, cancelExecutionsIn, cancelWorkflowExecutions } from './run/cancel';
export type { CancelOutcome } from './run/cancel';
export { previewReplay, replayExecution, retryFailed } from './run/replay';
export type { AuthorizeReplay, ReplayFrom, ReplayRequest, ReplayVersion } from './run/replay';
export { resumeWithDecision } from './run/resume';
export { roomForSlotlessRuns, slotlessRunLimit } from './run/slotless-runs';

// Dispatch: why mail started a run or not, webhooks.
export { mailStartVerdicts, mailTriggerDataOf } from './dispatch/dispatch-mail';
export type { MailStartVerdict } from './dispatch/dispatch-mail';
export { mailStartReasonOf, notStartedVerdicts } from './dispatch/start-reason';
export type { MailStartReason, NotStartedVerdict } from './dispatch/start-reason';
export { webhookSecretPurpose } from './dispatch/webhook';
export { serialKeyExpressionProblem } from './dispatch/serial-key';

// Graphs: validation, trigger facts, forbidden node types, the scopes a graph needs.
export { validateGraph } from './graph/validate-graph';
export type { GraphIssue } from './graph/validate-graph';
export { forbiddenNodeIssues, forbiddenNodeTypesFor, forbiddenTypesIn } from './graph/forbidden-nodes';
export { triggerFactsOf, triggerNodesOf } from './graph/trigger-facts';
export { graphScopes } from './graph/required-scopes';
export type { ScopeNeeds } from './graph/required-scopes';

// Node types: the registry, their parameter help, the words of a parameter issue.
export { latestNodeTypes, nodeRequirementsOf } from './nodes/registry';
export { localizeParamsSchema } from './nodes/param-help';
export { formatPath } from './nodes/check-params';
export type { IssueRule } from './nodes/readable-issue';

// Expressions: masking secrets in what is shown.
export { maskSecrets, maskText } from './expressions';
