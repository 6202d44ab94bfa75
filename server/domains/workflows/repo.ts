/**
 * The workflows domain's queries. A member's workflow is read through `findOwnedOrThrow` /
 * `lockOwnedOrThrow` only: an id that names no workflow of the caller (malformed, unknown, another
 * member's) is one 404 `workflow.not_found`, never a 403.
 */
import type { Prisma, Workflow, WorkflowVersion } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { isUuid } from '../../core/ids';

export async function findOwnedOrThrow(memberId: string, id: string, tx: Tx = db()): Promise<Workflow> {
  const workflow = isUuid(id) ? await tx.workflow.findFirst({ where: { id: id.toLowerCase(), memberId } }) : null;
  if (!workflow) throw appError('workflow.not_found');
  return workflow;
}

/** The member's workflow under FOR UPDATE, read again: concurrent changes of one workflow serialise. */
export async function lockOwnedOrThrow(memberId: string, id: string, tx: Tx): Promise<Workflow> {
  const found = await findOwnedOrThrow(memberId, id, tx);
  await tx.$queryRaw`SELECT id FROM workflows WHERE id = ${found.id}::uuid FOR UPDATE`;
  return findOwnedOrThrow(memberId, found.id, tx);
}

export type PublishedVersionFacts = Pick<WorkflowVersion, 'id' | 'number' | 'createdAt' | 'triggerType'>;

/** The published versions of these workflows, by version id. */
export async function publishedVersions(workflows: Pick<Workflow, 'publishedVersionId'>[], tx: Tx = db()): Promise<Map<string, PublishedVersionFacts>> {
  const ids = workflows.map((workflow) => workflow.publishedVersionId).filter((id): id is string => id !== null);
  if (ids.length === 0) return new Map();
  const versions = await tx.workflowVersion.findMany({ where: { id: { in: ids } }, select: { id: true, number: true, createdAt: true, triggerType: true } });
  return new Map(versions.map((version) => [version.id, version]));
}

export async function nextVersionNumber(workflowId: string, tx: Tx): Promise<number> {
  const { _max } = await tx.workflowVersion.aggregate({ where: { workflowId, number: { not: null } }, _max: { number: true } });
  return (_max.number ?? 0) + 1;
}

/** The member's workflow with this id, or null (the id already checked as a UUID). */
export function findOwned(memberId: string, id: string, tx: Tx = db()): Promise<Workflow | null> {
  return tx.workflow.findFirst({ where: { id: id.toLowerCase(), memberId } });
}

/** The member's workflows, newest first. */
export function listOwned(memberId: string, tx: Tx = db()): Promise<Workflow[]> {
  return tx.workflow.findMany({ where: { memberId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

export function insertWorkflow(data: Prisma.WorkflowUncheckedCreateInput, tx: Tx): Promise<Workflow> {
  return tx.workflow.create({ data });
}

export function updateWorkflowRow(id: string, data: Prisma.WorkflowUncheckedUpdateInput, tx: Tx): Promise<Workflow> {
  return tx.workflow.update({ where: { id }, data });
}

/** Deletes the workflow and its versions; its executions and incidents stay (no foreign key). */
export async function deleteWorkflowRow(memberId: string, workflowId: string, tx: Tx): Promise<void> {
  await tx.workflowSchedule.deleteMany({ where: { workflowId } });
  // Another workflow naming this one as its error workflow would point at nothing.
  await tx.workflow.updateMany({ where: { memberId, errorWorkflowId: workflowId }, data: { errorWorkflowId: null } });
  await tx.workflow.delete({ where: { id: workflowId } });
}

export function versionTriggerType(versionId: string, tx: Tx): Promise<{ triggerType: WorkflowVersion['triggerType'] } | null> {
  return tx.workflowVersion.findUnique({ where: { id: versionId }, select: { triggerType: true } });
}

/** Which of these ids are mirrored messages of the member's mailboxes. */
export function memberMessageIds(memberId: string, messageIds: string[], tx: Tx = db()): Promise<{ id: string }[]> {
  return tx.mailMessage.findMany({ where: { id: { in: messageIds }, mailbox: { memberId } }, select: { id: true } });
}

/** The published graphs of the member's workflows among `ids` (every published one when `ids` is null). */
export async function publishedGraphs(memberId: string, ids: string[] | null, tx: Pick<Tx, 'workflow' | 'workflowVersion'>): Promise<{ workflowId: string; graph: unknown }[]> {
  const workflows = await tx.workflow.findMany({
    where: { memberId, archivedAt: null, publishedVersionId: { not: null }, ...(ids ? { id: { in: ids } } : {}) },
    select: { id: true, publishedVersionId: true },
  });
  if (workflows.length === 0) return [];
  const versions = await tx.workflowVersion.findMany({ where: { id: { in: workflows.map((workflow) => workflow.publishedVersionId!) } }, select: { workflowId: true, graph: true } });
  return versions.map((version) => ({ workflowId: version.workflowId, graph: version.graph }));
}

export function findByIdOrThrow(id: string, tx: Tx): Promise<Workflow> {
  return tx.workflow.findUniqueOrThrow({ where: { id } });
}

/** Takes the workflow off its published version; answers how many changed (0: it had none). */
export function clearPublishedVersion(id: string, tx: Tx) {
  return tx.workflow.updateMany({ where: { id, publishedVersionId: { not: null } }, data: { publishedVersionId: null } });
}

/** The member's mirrored message with this id, or null (another member's message does not exist for them). */
export function findMemberMessage(memberId: string, messageId: string, tx: Tx) {
  return tx.mailMessage.findFirst({ where: { id: messageId.toLowerCase(), mailbox: { memberId } } });
}

// ----- links (./links.ts): what other domains ask about a member's workflows ----------------------

/** The member's published workflows, by name. */
export function listPublished(memberId: string, tx: Tx) {
  return tx.workflow.findMany({
    where: { memberId, publishedVersionId: { not: null } },
    select: { id: true, name: true, publishedVersionId: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}

/** The trigger facts of these versions: the trigger type and the mailboxes it watches or acts on. */
export function versionMailboxFacts(versionIds: string[], tx: Tx) {
  return tx.workflowVersion.findMany({
    where: { id: { in: versionIds } },
    select: { id: true, triggerType: true, triggerMailboxIds: true, usedMailboxIds: true },
  });
}

/** The member a mailbox belongs to, or null when it is gone. */
export function mailboxOwner(mailboxId: string, tx: Tx) {
  return tx.mailbox.findUnique({ where: { id: mailboxId }, select: { memberId: true } });
}

/** Executions of these workflows in one of these statuses. */
export function countExecutionsIn(workflowIds: string[], statuses: string[], tx: Tx): Promise<number> {
  return tx.execution.count({ where: { workflowId: { in: workflowIds }, status: { in: statuses } } });
}

/** The published workflows of these members, counted by member. */
export function countPublishedByMember(memberIds: string[], tx: Tx) {
  return tx.workflow.groupBy({ by: ['memberId'], where: { memberId: { in: memberIds }, publishedVersionId: { not: null } }, _count: { _all: true } });
}

/** The ids of the member's published workflows. */
export function publishedIdsOf(memberId: string, tx: Tx) {
  return tx.workflow.findMany({ where: { memberId, publishedVersionId: { not: null } }, select: { id: true } });
}
