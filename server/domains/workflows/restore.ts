/**
 * Rolling back: an earlier (numbered) version's graph becomes the draft, as a new draft revision.
 * The published version is never touched (publishing the restored draft is a separate step), and the
 * version itself stays as it was. The graph is checked as a graph save is (PUT …/graph): a version
 * using a node type that went away, or one the instance now forbids to members, is 400
 * `workflow.invalid_graph`. Like a graph save, a restore is not audited (publishing is).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { isUuid } from '../../core/ids';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { forbiddenNodeTypesFor, formatPath } from '../../engine';
import { graphInput } from '../../engine/contract/graph';
import { assertGraphScopes } from './graph-scopes';
import { readGraph } from './present';
import * as repo from './repo';
import { findNumberedVersion } from './repo-versions';
import { assertValidGraph, refuseArchived } from './service';

/**
 * The version's stored graph under today's shape. readGraph would read an unparsable graph as an
 * empty one, which must never silently become the draft: such a version is refused like an invalid save.
 */
function versionGraph(stored: unknown) {
  const parsed = graphInput.safeParse(stored ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 50).map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
    throw appError('workflow.invalid_graph', { details: { issues } });
  }
  const { id: _id, workflowId: _workflowId, ...graph } = parsed.data;
  return graph;
}

export async function restoreVersion(actor: AuthenticatedActor, input: { id: string; versionId: string; draftRevision?: number }) {
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    const version = isUuid(input.versionId)
      ? await findNumberedVersion(workflow.id, input.versionId, tx)
      : null;
    if (!version) throw appError('workflow.version_not_found');
    refuseArchived(workflow);
    if (input.draftRevision !== undefined && input.draftRevision !== workflow.draftRevision) {
      throw appError('workflow.revision_conflict', { details: { draftRevision: workflow.draftRevision } });
    }
    const graph = versionGraph(version.graph);
    assertValidGraph(graph, forbiddenNodeTypesFor(actor.member.role));
    await assertGraphScopes(actor, graph, tx);
    const updated = await repo.updateWorkflowRow(workflow.id, { graph: graph as object, draftRevision: { increment: 1 } }, tx);
    return {
      graph: readGraph(updated.graph, { id: updated.id, workflowId: updated.id }),
      draftRevision: updated.draftRevision,
      restoredFrom: { id: version.id, number: version.number ?? 0 },
    };
  });
}
