/**
 * Workflows: a member's draft graph and settings (the lifecycle of versions is in lifecycle.ts, test
 * runs in test-runs.ts, the webhook in webhook.ts). Every read and write is scoped to the caller:
 * another member's workflow is 404 `workflow.not_found`. An archived workflow is read-only.
 */
import type { Workflow } from '../../generated/prisma/client';
import { authorizeScopeNeeds, type AuthenticatedActor, type ScopeNeed } from '../../core/auth/access';
import { isUuid } from '../../core/ids';
import { auditByOf, recordAudit } from '../../core/audit';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import type { GraphInput, WorkflowGraph } from '../../engine/contract/graph';
import { graphInput } from '../../engine/contract/graph';
import { forbiddenNodeIssues, forbiddenNodeTypesFor, serialKeyExpressionProblem, triggerFactsOf, validateGraph } from '../../engine';
import type { IssueRule } from '../../engine';
import { engineBounds, instanceCeilings } from '../../engine/contract/limits';
import type { OneRunAtATime, SerialKeyKind } from '../../engine/contract/one-run-at-a-time';
import { assertGraphScopes, needFor } from './graph-scopes';
import { draftOf, presentWorkflow, presentWorkflowDetail, readGraph } from './present';
import * as repo from './repo';

type ParsedGraph = ReturnType<typeof graphInput.parse>;

/**
 * 400 `workflow.invalid_graph` with every issue, or nothing. `forbidden`: node types the caller may
 * not use (FORBIDDEN_NODE_TYPES for a member, see forbiddenNodeTypesFor), each one an issue too.
 */
export function assertValidGraph(graph: ParsedGraph | WorkflowGraph, forbidden: ReadonlySet<string> = new Set()): void {
  const issues = graphIssues(graph, forbidden);
  if (issues.length) throw appError('workflow.invalid_graph', { details: { issues } });
}

/** Every issue of a graph as the API shows them ({path, message, rule?}), the forbidden types' first. */
function graphIssues(graph: ParsedGraph | WorkflowGraph, forbidden: ReadonlySet<string>): DraftIssue[] {
  return [...forbiddenNodeIssues(graph, forbidden), ...validateGraph(graph)].map(({ structural: _structural, ...issue }) => issue);
}

export type DraftIssue = { path: string; message: string; rule?: IssueRule };

/**
 * A draft may be incomplete (issue 19 §6: an incomplete node never blocks saving): it is refused
 * (400 `workflow.invalid_graph`, every issue) only when it cannot be kept at all (an unknown or
 * forbidden node type, duplicate ids, a connection or pin naming no node). Otherwise its issues are
 * answered with it, and publishing, test runs and evaluations refuse it until they are fixed.
 */
export function draftIssuesOrRefuse(graph: ParsedGraph | WorkflowGraph, forbidden: ReadonlySet<string>): DraftIssue[] {
  const found = [...forbiddenNodeIssues(graph, forbidden), ...validateGraph(graph)];
  const issues = found.map(({ structural: _structural, ...issue }) => issue);
  if (found.some((issue) => issue.structural)) throw appError('workflow.invalid_graph', { details: { issues } });
  return issues;
}

/** The issues of a stored draft, as a save answered them (none for a complete draft). */
export function draftIssuesOf(graph: WorkflowGraph, role: 'member' | 'admin'): DraftIssue[] {
  return graphIssues(graph, forbiddenNodeTypesFor(role));
}

/** What is stored as the draft: the validated graph without its ids (they are the workflow's). */
function storable(graph: ParsedGraph): object {
  const { id: _id, workflowId: _workflowId, ...rest } = graph;
  return rest;
}

export function refuseArchived(workflow: Pick<Workflow, 'archivedAt'>): void {
  if (workflow.archivedAt) throw appError('workflow.archived');
}

export async function presentOne(workflow: Workflow, tx: Tx = db()) {
  const versions = await repo.publishedVersions([workflow], tx);
  return presentWorkflow(workflow, workflow.publishedVersionId ? (versions.get(workflow.publishedVersionId) ?? null) : null);
}

/** `tx`: inside a caller's transaction (installing a template counts the install in the same one). */
export async function createWorkflow(actor: AuthenticatedActor, input: { name: string; description?: string; graph?: GraphInput }, ip: string | null, tx?: Tx) {
  const graph = graphInput.parse(input.graph ?? {});
  const issues = draftIssuesOrRefuse(graph, forbiddenNodeTypesFor(actor.member.role));
  await assertGraphScopes(actor, graph, tx ?? db());
  const write = async (tx: Tx) => {
    const workflow = await repo.insertWorkflow({ memberId: actor.member.id, name: input.name, description: input.description ?? '', graph: storable(graph) }, tx);
    await recordAudit(auditByOf(actor), { action: 'workflow.created', targetKind: 'workflow', targetId: workflow.id, details: { name: workflow.name }, ip }, tx);
    return { workflow: presentWorkflow(workflow, null), issues };
  };
  return tx ? write(tx) : db().$transaction(write);
}

export async function listWorkflows(actor: AuthenticatedActor) {
  const workflows = await repo.listOwned(actor.member.id);
  const versions = await repo.publishedVersions(workflows);
  return {
    workflows: workflows.map((workflow) => presentWorkflow(workflow, workflow.publishedVersionId ? (versions.get(workflow.publishedVersionId) ?? null) : null)),
  };
}

export async function getWorkflow(actor: AuthenticatedActor, id: string) {
  const workflow = await repo.findOwnedOrThrow(actor.member.id, id);
  const versions = await repo.publishedVersions([workflow]);
  const detail = presentWorkflowDetail(workflow, workflow.publishedVersionId ? (versions.get(workflow.publishedVersionId) ?? null) : null);
  return { workflow: { ...detail, draftIssues: draftIssuesOf(detail.graph, actor.member.role) } };
}

interface SettingsInput {
  errorWorkflowId?: string | null;
  maxConcurrency?: number | null;
  executionTimeoutMs?: number | null;
  sendWithoutReview?: boolean;
  oneRunAtATime?: { by: SerialKeyKind; expression?: string | null; coalesceSeconds?: number } | null;
}

function settingsObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

/** 409 `workflow.execution_limit_invalid` when a limit is outside the instance's bounds. */
function checkLimits(settings: SettingsInput): void {
  const ceilings = instanceCeilings();
  const bounds = {
    maxConcurrency: { minimum: 1, ceiling: ceilings.maxConcurrency },
    executionTimeoutMs: { minimum: engineBounds.runTimeoutMs.min, ceiling: ceilings.executionTimeoutMs },
  };
  for (const field of ['maxConcurrency', 'executionTimeoutMs'] as const) {
    const value = settings[field];
    if (value === undefined || value === null) continue;
    const { minimum, ceiling } = bounds[field];
    if (value < minimum || value > ceiling) throw appError('workflow.execution_limit_invalid', { details: { field, value, minimum, ceiling } });
  }
}

/**
 * The "one run at a time" setting as stored: an expression only with `by: expression`, where it is
 * required and must be an inline expression (dispatch/serial-key.ts says why); 400 otherwise.
 */
function checkedOneRunAtATime(input: NonNullable<SettingsInput['oneRunAtATime']>): OneRunAtATime {
  const refuse = (reason: string, message: string) => appError('request.bad_request', { message, details: { field: 'settings.oneRunAtATime.expression', reason } });
  if (input.by !== 'expression') return { by: input.by, expression: null, coalesceSeconds: input.coalesceSeconds ?? 0 };
  const expression = input.expression?.trim() ?? '';
  if (expression === '') throw refuse('required', 'A key expression is required when runs are kept one at a time by expression.');
  const problem = serialKeyExpressionProblem(expression);
  if (problem) throw refuse(problem.reason, problem.message);
  return { by: 'expression', expression, coalesceSeconds: input.coalesceSeconds ?? 0 };
}

/** The workflow's `settings` JSON with the PATCH's changes to it, or undefined when it has none. */
function nextSettingsJson(stored: unknown, settings: SettingsInput): Record<string, unknown> | undefined {
  if (settings.sendWithoutReview === undefined && settings.oneRunAtATime === undefined) return undefined;
  const next = settingsObject(stored);
  if (settings.sendWithoutReview !== undefined) next.sendWithoutReview = settings.sendWithoutReview;
  if (settings.oneRunAtATime === null) delete next.oneRunAtATime;
  else if (settings.oneRunAtATime !== undefined) next.oneRunAtATime = checkedOneRunAtATime(settings.oneRunAtATime);
  return next;
}

/**
 * The error workflow must be another workflow of the same member whose draft or published graph
 * starts with the workflow-failure trigger.
 */
async function checkErrorWorkflow(memberId: string, workflowId: string, errorWorkflowId: string, tx: Tx): Promise<string> {
  const refuse = () => appError('workflow.invalid_error_workflow', { details: { errorWorkflowId } });
  if (!isUuid(errorWorkflowId)) throw refuse();
  const target = await repo.findOwned(memberId, errorWorkflowId, tx);
  if (!target || target.id === workflowId) throw refuse();
  if (triggerFactsOf(draftOf(target)).triggerType === 'workflow_failure') return target.id;
  if (target.publishedVersionId) {
    const version = await repo.versionTriggerType(target.publishedVersionId, tx);
    if (version?.triggerType === 'workflow_failure') return target.id;
  }
  throw refuse();
}

export async function patchWorkflow(
  actor: AuthenticatedActor,
  input: { id: string; name?: string; description?: string; settings?: SettingsInput },
  ip: string | null,
) {
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    refuseArchived(workflow);
    const settings = input.settings ?? {};
    checkLimits(settings);
    // Sending without review takes the review queue out of every send of the workflow: a key needs review:write for it.
    if (settings.sendWithoutReview === true) authorizeScopeNeeds(actor, [needFor('review:write', 'send_without_review')]);
    let errorWorkflowId: string | null | undefined = settings.errorWorkflowId;
    if (errorWorkflowId) errorWorkflowId = await checkErrorWorkflow(actor.member.id, workflow.id, errorWorkflowId, tx);
    const updated = await repo.updateWorkflowRow(
      workflow.id,
      {
        name: input.name,
        description: input.description,
        errorWorkflowId,
        maxConcurrency: settings.maxConcurrency,
        executionTimeoutMs: settings.executionTimeoutMs,
        settings: nextSettingsJson(workflow.settings, settings) as object | undefined,
      },
      tx,
    );
    const changed = [...(['name', 'description'] as const).filter((field) => input[field] !== undefined), ...Object.keys(settings)];
    await recordAudit(auditByOf(actor), { action: 'workflow.updated', targetKind: 'workflow', targetId: workflow.id, details: { fields: changed }, ip }, tx);
    return { workflow: await presentOne(updated, tx) };
  });
}

/** `extra`: scopes the caller needs besides the graph's (the assistant writing a draft needs `workflows:write`). */
export async function putGraph(actor: AuthenticatedActor, input: { id: string; graph: GraphInput; draftRevision?: number }, extra: readonly ScopeNeed[] = []) {
  const graph = graphInput.parse(input.graph);
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    refuseArchived(workflow);
    if (input.draftRevision !== undefined && input.draftRevision !== workflow.draftRevision) {
      throw appError('workflow.revision_conflict', { details: { draftRevision: workflow.draftRevision } });
    }
    const issues = draftIssuesOrRefuse(graph, forbiddenNodeTypesFor(actor.member.role));
    await assertGraphScopes(actor, graph, tx, extra);
    const updated = await repo.updateWorkflowRow(workflow.id, { graph: storable(graph), draftRevision: { increment: 1 } }, tx);
    return { graph: readGraph(updated.graph, { id: updated.id, workflowId: updated.id }), draftRevision: updated.draftRevision, issues };
  });
}

export async function setTestMessages(actor: AuthenticatedActor, input: { id: string; messageIds: string[] }) {
  const messageIds = [...new Set(input.messageIds.map((id) => id.toLowerCase()))];
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    await assertOwnMessages(actor.member.id, messageIds, tx);
    const updated = await repo.updateWorkflowRow(workflow.id, { testMessageIds: messageIds }, tx);
    return { testMessageIds: updated.testMessageIds };
  });
}

/** 400 `workflow.test_message_not_found` naming the ids that are not mirrored messages of the member's mailboxes. */
export async function assertOwnMessages(memberId: string, messageIds: string[], tx: Tx = db()): Promise<void> {
  if (messageIds.length === 0) return;
  const found = await repo.memberMessageIds(memberId, messageIds, tx);
  const known = new Set(found.map((message) => message.id));
  const missing = messageIds.filter((id) => !known.has(id));
  if (missing.length) throw appError('workflow.test_message_not_found', { details: { messageIds: missing } });
}

/** Deletes the workflow and its versions; its executions and incidents stay (no foreign key). */
export async function deleteWorkflow(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, id, tx);
    const answer = await presentOne(workflow, tx);
    await repo.deleteWorkflowRow(actor.member.id, workflow.id, tx);
    await recordAudit(auditByOf(actor), { action: 'workflow.deleted', targetKind: 'workflow', targetId: workflow.id, details: { name: workflow.name }, ip }, tx);
    return { workflow: answer };
  });
}
