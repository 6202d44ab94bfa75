/**
 * The queries of a workflow's versions and its schedule (./lifecycle.ts, ./restore.ts, ./test-runs.ts): a version is
 * immutable once written; a numbered one is published history, a test run's has no number.
 */
import type { Prisma, WorkflowVersion } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';

export function insertVersion(data: Prisma.WorkflowVersionUncheckedCreateInput, tx: Tx): Promise<WorkflowVersion> {
  return tx.workflowVersion.create({ data });
}

/** The workflow's numbered version with this id (already checked as a UUID), or null. */
export function findNumberedVersion(workflowId: string, versionId: string, tx: Pick<Tx, 'workflowVersion'> = db()): Promise<WorkflowVersion | null> {
  return tx.workflowVersion.findFirst({ where: { id: versionId.toLowerCase(), workflowId, number: { not: null } } });
}

/** The workflow's numbered versions, newest first. */
export function listNumberedVersions(workflowId: string): Promise<WorkflowVersion[]> {
  return db().workflowVersion.findMany({
    where: { workflowId, number: { not: null } },
    orderBy: [{ number: 'desc' }],
  });
}

/** The workflow's schedule set to this version's cron and next run (created when it had none). */
export async function upsertSchedule(
  workflowId: string,
  versionId: string,
  schedule: { cron: string; timeZone: string; nextRunAt: Date },
  tx: Tx,
): Promise<void> {
  await tx.workflowSchedule.upsert({
    where: { workflowId },
    create: { workflowId, versionId, ...schedule },
    update: { versionId, ...schedule },
  });
}

export async function deleteSchedule(workflowId: string, tx: Tx): Promise<void> {
  await tx.workflowSchedule.deleteMany({ where: { workflowId } });
}
