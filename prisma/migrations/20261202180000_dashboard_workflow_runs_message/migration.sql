-- The mail figures of one workflow (server/domains/dashboard/mail-sql.ts, journalOfWorkflowSql) start from the
-- workflow's counted runs of the window and need each run's message: with `message_id` in the covering index the
-- runs are read by index only instead of one heap fetch per run (bench/dashboard.ts at 1,000,000 runs in 30 days:
-- a bitmap heap scan of 50,000 runs, ~220 ms of the statement's ~775 ms on the loaded 2-core box).
DROP INDEX IF EXISTS "executions_dashboard_workflow_created_at_idx";

CREATE INDEX "executions_dashboard_workflow_created_at_idx" ON "executions" ("workflow_id", "created_at")
  INCLUDE ("status", "member_id", "started_at", "finished_at", "message_id")
  WHERE "simulated" = false AND "eval_run_id" IS NULL AND "started_by" IS DISTINCT FROM 'loop_iteration';
