-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "resolved_at" TIMESTAMPTZ(3),
ADD COLUMN     "resolved_by_execution_id" UUID;

-- Backfill: an incident whose run was already replayed successfully (the first successful direct
-- replay) is resolved by it, as the runner now does when a replay succeeds.
UPDATE "incidents" i
   SET "resolved_at" = r.finished_at,
       "resolved_by_execution_id" = r.id,
       "acknowledged_at" = coalesce(i."acknowledged_at", r.finished_at)
  FROM (SELECT DISTINCT ON (retry_of_execution_id) retry_of_execution_id, id, finished_at
          FROM "executions"
         WHERE retry_of_execution_id IS NOT NULL AND status = 'succeeded' AND finished_at IS NOT NULL
         ORDER BY retry_of_execution_id, finished_at ASC, id ASC) r
 WHERE r.retry_of_execution_id = i."execution_id" AND i."resolved_at" IS NULL;
