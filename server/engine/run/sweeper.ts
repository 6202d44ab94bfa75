/**
 * The safety net that makes crashes cheap: every few seconds, executions whose advancer died (lease
 * expired), whose wait ended, or that sit queued with no job to admit them are queued to advance
 * again. Job keys dedupe, so several runners sweeping together queue each execution once.
 */
import { db } from '../../core/db';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';

export const sweepEveryMs = 3_000;

export async function sweepExecutions(limit = 500): Promise<number> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    (SELECT id FROM executions WHERE status IN ('queued', 'running') AND lease_owner IS NOT NULL AND lease_until < now() LIMIT ${limit})
    UNION
    (SELECT id FROM executions WHERE status = 'waiting' AND wait_until IS NOT NULL AND wait_until <= now() LIMIT ${limit})
    UNION
    (SELECT e.id FROM executions e WHERE e.status = 'queued' AND e.lease_owner IS NULL
       AND e.created_at < now() - interval '10 seconds'
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'execution:' || e.id::text)
     ORDER BY e.seq LIMIT ${limit})`;
  for (const row of rows) {
    await enqueue('execution.advance', { executionId: row.id }, { jobKey: jobKeys.execution(row.id) });
  }
  return rows.length;
}
