/**
 * Schedule triggers: the runner's `workflow-schedules` task (every minute) starts each due
 * WorkflowSchedule once. One transaction per schedule takes its row (FOR UPDATE SKIP LOCKED), starts
 * the run and moves `nextRunAt` to the next time after now, so two runners never start the same
 * occurrence twice, and a crash before the commit leaves the occurrence due. Occurrences missed while
 * no runner ran are not caught up one by one: the first pass starts one run and moves on.
 *
 * A schedule whose workflow cannot start (paused, archived, unpublished, or another version published
 * since) starts nothing; its time still moves on. The workflows domain rewrites or deletes the row at
 * publish, pause and unpublish.
 */
import { db, type Tx } from '../../core/db';
import { log } from '../../core/log';
import { nextRunOf } from '../nodes/triggers/schedule-trigger.node';
import { startExecution } from '../run/start';

/** Schedules handled per pass (a fresh pass runs a minute later). */
const maxPerPass = 1_000;

interface DueSchedule {
  workflowId: string;
  versionId: string;
  cron: string;
  timeZone: string;
  nextRunAt: Date;
}

/** Starts every due schedule once. Returns how many runs it started. */
export async function startDueSchedules(now: () => Date = () => new Date()): Promise<number> {
  let started = 0;
  for (let pass = 0; pass < maxPerPass; pass += 1) {
    const outcome = await db().$transaction((tx) => startOne(tx, now()), { timeout: 30_000, maxWait: 30_000 });
    if (outcome === 'none') break;
    if (outcome === 'started') started += 1;
  }
  return started;
}

async function startOne(tx: Tx, now: Date): Promise<'none' | 'started' | 'skipped'> {
  const rows = await tx.$queryRaw<DueSchedule[]>`
    SELECT workflow_id AS "workflowId", version_id AS "versionId", cron, time_zone AS "timeZone", next_run_at AS "nextRunAt"
      FROM workflow_schedules
     WHERE next_run_at <= ${now}
     ORDER BY next_run_at, workflow_id
     LIMIT 1
       FOR UPDATE SKIP LOCKED`;
  const schedule = rows[0];
  if (!schedule) return 'none';
  let next: Date;
  try {
    next = nextRunOf(schedule.cron, schedule.timeZone, now);
  } catch {
    // Only a valid cron is ever published; a row that no longer parses is dropped rather than retried every minute.
    log.warn({ workflowId: schedule.workflowId }, 'unreadable workflow schedule removed');
    await tx.workflowSchedule.delete({ where: { workflowId: schedule.workflowId } });
    return 'skipped';
  }
  await tx.workflowSchedule.update({ where: { workflowId: schedule.workflowId }, data: { nextRunAt: next } });
  const workflow = await tx.workflow.findUnique({
    where: { id: schedule.workflowId },
    select: { id: true, memberId: true, paused: true, archivedAt: true, publishedVersionId: true },
  });
  if (!workflow || workflow.paused || workflow.archivedAt || workflow.publishedVersionId !== schedule.versionId) return 'skipped';
  const version = await tx.workflowVersion.findUnique({ where: { id: schedule.versionId }, select: { id: true, triggerType: true, triggerNodeId: true } });
  if (!version || version.triggerType !== 'schedule') return 'skipped';
  await startExecution(
    {
      memberId: workflow.memberId,
      workflowId: workflow.id,
      workflowVersionId: version.id,
      trigger: { type: 'schedule', nodeId: version.triggerNodeId, data: { firedAt: schedule.nextRunAt.toISOString() } },
    },
    tx,
  );
  return 'started';
}
