/** Stored workflows and versions → the API's resources. */
import type { Workflow, WorkflowVersion } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import { graphInput, type WorkflowGraph } from '../../engine/contract/graph';
import { triggerFactsOf } from '../../engine';
import { executionLimitsOf } from '../../engine/contract/limits';
import { oneRunAtATimeOf } from '../../engine/contract/one-run-at-a-time';
import type { PublishedVersionFacts } from './repo';

export type WorkflowStatus = 'draft' | 'published' | 'paused' | 'archived';

export function statusOf(workflow: Pick<Workflow, 'archivedAt' | 'publishedVersionId' | 'paused'>): WorkflowStatus {
  if (workflow.archivedAt) return 'archived';
  if (!workflow.publishedVersionId) return 'draft';
  return workflow.paused ? 'paused' : 'published';
}

/**
 * A stored graph read back: the draft is stored as validated, without its ids, which are the
 * workflow's (draft) or the version's (snapshot). Anything unreadable reads as an empty graph.
 */
export function readGraph(stored: unknown, ids: { id: string; workflowId: string }): WorkflowGraph {
  const parsed = graphInput.safeParse(stored ?? {});
  const graph = parsed.success ? parsed.data : graphInput.parse({});
  return { ...graph, ...ids };
}

/** The workflow's `settings.sendWithoutReview` (false unless set to true). */
export function sendsWithoutReview(settings: unknown): boolean {
  return typeof settings === 'object' && settings !== null && !Array.isArray(settings) && (settings as Record<string, unknown>).sendWithoutReview === true;
}

export function draftOf(workflow: Pick<Workflow, 'id' | 'graph'>): WorkflowGraph {
  return readGraph(workflow.graph, { id: workflow.id, workflowId: workflow.id });
}

export function presentWorkflow(workflow: Workflow, published: PublishedVersionFacts | null) {
  const version = workflow.publishedVersionId && published?.id === workflow.publishedVersionId ? published : null;
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description,
    status: statusOf(workflow),
    publishedVersion: version && version.number !== null ? { id: version.id, number: version.number, publishedAt: iso(version.createdAt) } : null,
    triggerType: version ? version.triggerType : triggerFactsOf(draftOf(workflow)).triggerType,
    draftRevision: workflow.draftRevision,
    errorWorkflowId: workflow.errorWorkflowId,
    maxConcurrency: workflow.maxConcurrency,
    executionTimeoutMs: workflow.executionTimeoutMs,
    sendWithoutReview: sendsWithoutReview(workflow.settings),
    oneRunAtATime: oneRunAtATimeOf(workflow.settings),
    createdAt: iso(workflow.createdAt),
    updatedAt: iso(workflow.updatedAt),
  };
}

export function presentWorkflowDetail(workflow: Workflow, published: PublishedVersionFacts | null) {
  return {
    ...presentWorkflow(workflow, published),
    graph: draftOf(workflow),
    executionLimits: executionLimitsOf(workflow),
    testMessageIds: workflow.testMessageIds,
    webhook: { configured: workflow.webhookTokenHash !== null, requireSignature: workflow.webhookSecretEnc !== null },
  };
}

export function presentVersion(version: WorkflowVersion, publishedVersionId: string | null) {
  return {
    id: version.id,
    number: version.number ?? 0,
    note: version.note,
    createdAt: iso(version.createdAt),
    createdBy: version.createdBy,
    triggerType: version.triggerType,
    published: version.id === publishedVersionId,
  };
}
