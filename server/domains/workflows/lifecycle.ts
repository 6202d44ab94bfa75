/**
 * A workflow's life: publishing a draft as an immutable numbered version (with the trigger facts
 * dispatch and removal-impact read), unpublishing, pausing, resuming, archiving, and reading versions.
 * None of these cancels runs in progress (spec, Errors → replay rules). Repeats answer 200.
 */
import { randomUUID } from 'node:crypto';
import type { Workflow } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { isUuid } from '../../core/ids';
import { auditByOf, recordAudit } from '../../core/audit';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import type { WorkflowGraph } from '../../engine/contract/graph';
import { forbiddenNodeTypesFor, triggerFactsOf, triggerNodesOf } from '../../engine';
import { assertGraphScopes } from './graph-scopes';
import { draftOf, presentVersion, readGraph } from './present';
import * as repo from './repo';
import { deleteSchedule, findNumberedVersion, insertVersion, listNumberedVersions, upsertSchedule } from './repo-versions';
import { nextRunAt } from './schedule';
import { assertValidGraph, presentOne, refuseArchived } from './service';

/** The next run of a schedule trigger, or a 400 naming the parameter when its expression does not parse. */
function nextRunOf(graph: WorkflowGraph, nodeId: string, now: Date): { cron: string; timeZone: string; nextRunAt: Date } {
  const index = graph.nodes.findIndex((node) => node.id === nodeId);
  const params = graph.nodes[index].params;
  const cron = Object.hasOwn(params, 'cron') ? params.cron : undefined;
  const timeZone = Object.hasOwn(params, 'timeZone') && typeof params.timeZone === 'string' && params.timeZone ? params.timeZone : 'UTC';
  const next = nextRunAt(cron, timeZone, now);
  if (typeof cron !== 'string' || !next) {
    throw appError('workflow.invalid_graph', {
      details: { issues: [{ path: `nodes[${index}].params.cron`, message: 'Not a cron expression this instance can schedule (five or six fields, a valid time zone).' }] },
    });
  }
  return { cron, timeZone, nextRunAt: next };
}

async function unschedule(workflowId: string, tx: Tx): Promise<void> {
  await deleteSchedule(workflowId, tx);
}

export async function publishWorkflow(actor: AuthenticatedActor, input: { id: string; note?: string }, ip: string | null) {
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    refuseArchived(workflow);
    const draft = draftOf(workflow);
    assertValidGraph(draft, forbiddenNodeTypesFor(actor.member.role));
    await assertGraphScopes(actor, draft, tx);
    if (triggerNodesOf(draft.nodes).length !== 1) throw appError('workflow.no_trigger');
    const facts = triggerFactsOf(draft);
    const versionId = randomUUID();
    const schedule = facts.triggerType === 'schedule' ? nextRunOf(draft, facts.triggerNodeId!, new Date()) : null;
    const version = await insertVersion(
      {
        id: versionId,
        workflowId: workflow.id,
        number: await repo.nextVersionNumber(workflow.id, tx),
        graph: { ...draft, id: versionId, workflowId: workflow.id } as object,
        note: input.note ?? '',
        ...facts,
        createdBy: actor.member.id,
      },
      tx,
    );
    await repo.updateWorkflowRow(workflow.id, { publishedVersionId: version.id }, tx);
    if (schedule) {
      await upsertSchedule(workflow.id, version.id, schedule, tx);
    } else {
      await unschedule(workflow.id, tx);
    }
    await recordAudit(
      auditByOf(actor),
      { action: 'workflow.published', targetKind: 'workflow', targetId: workflow.id, details: { versionId: version.id, number: version.number }, ip },
      tx,
    );
    return { version: presentVersion(version, version.id) };
  });
}

/** Takes a workflow off its published version, in the caller's transaction; false when it had none. */
export async function unpublishIn(workflowId: string, tx: Tx): Promise<boolean> {
  const { count } = await repo.clearPublishedVersion(workflowId, tx);
  await unschedule(workflowId, tx);
  return count > 0;
}

async function change(actor: AuthenticatedActor, id: string, ip: string | null, apply: (workflow: Workflow, tx: Tx) => Promise<string | null>) {
  return db().$transaction(async (tx) => {
    const workflow = await repo.lockOwnedOrThrow(actor.member.id, id, tx);
    const action = await apply(workflow, tx);
    if (action) await recordAudit(auditByOf(actor), { action, targetKind: 'workflow', targetId: workflow.id, details: { name: workflow.name }, ip }, tx);
    const updated = await repo.findByIdOrThrow(workflow.id, tx);
    return { workflow: await presentOne(updated, tx) };
  });
}

export function unpublishWorkflow(actor: AuthenticatedActor, id: string, ip: string | null) {
  return change(actor, id, ip, async (workflow, tx) => ((await unpublishIn(workflow.id, tx)) ? 'workflow.unpublished' : null));
}

export function pauseWorkflow(actor: AuthenticatedActor, id: string, ip: string | null) {
  return change(actor, id, ip, async (workflow, tx) => {
    refuseArchived(workflow);
    if (!workflow.publishedVersionId) throw appError('workflow.not_published');
    if (workflow.paused) return null;
    await repo.updateWorkflowRow(workflow.id, { paused: true }, tx);
    return 'workflow.paused';
  });
}

export function resumeWorkflow(actor: AuthenticatedActor, id: string, ip: string | null) {
  return change(actor, id, ip, async (workflow, tx) => {
    refuseArchived(workflow);
    if (!workflow.paused) return null;
    await repo.updateWorkflowRow(workflow.id, { paused: false }, tx);
    return 'workflow.resumed';
  });
}

export function archiveWorkflow(actor: AuthenticatedActor, id: string, ip: string | null) {
  return change(actor, id, ip, async (workflow, tx) => {
    if (workflow.archivedAt) return null;
    await unpublishIn(workflow.id, tx);
    await repo.updateWorkflowRow(workflow.id, { archivedAt: new Date() }, tx);
    return 'workflow.archived';
  });
}

export async function listVersions(actor: AuthenticatedActor, id: string) {
  const workflow = await repo.findOwnedOrThrow(actor.member.id, id);
  const versions = await listNumberedVersions(workflow.id);
  return { versions: versions.map((version) => presentVersion(version, workflow.publishedVersionId)) };
}

export async function getVersion(actor: AuthenticatedActor, input: { id: string; versionId: string }) {
  const workflow = await repo.findOwnedOrThrow(actor.member.id, input.id);
  const version = isUuid(input.versionId)
    ? await findNumberedVersion(workflow.id, input.versionId)
    : null;
  if (!version) throw appError('workflow.version_not_found');
  return { version: { ...presentVersion(version, workflow.publishedVersionId), graph: readGraph(version.graph, { id: version.id, workflowId: workflow.id }) } };
}
