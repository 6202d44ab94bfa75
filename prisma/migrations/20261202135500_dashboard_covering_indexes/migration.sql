-- The dashboard's executions figures for one member (`scope=me`) or one workflow read the window's counted runs
-- by index only: every column the four statements read (server/domains/dashboard/executions.ts) is in the index,
-- and only the runs they count are in it (live, not evaluation runs, not loop iterations; the predicate is the
-- statements' own text, so the planner proves it). Measured by bench/dashboard.ts at 1,000,000 runs over a year
-- (82,000 in 30 days, a tenth of them the member's): counts 386 → 58 ms, medians 126 → 14 ms, workflows 79 → 2 ms
-- for a member; 165 → 34, 143 → 3, 77 → 1 ms with `workflowId`. Without them the planner walks the org-wide
-- `executions_created_at_idx` and filters on the member row by row. Prisma's schema cannot say INCLUDE or WHERE:
-- hand-written, like mail_operations_pending_idx.
CREATE INDEX "executions_dashboard_member_created_at_idx" ON "executions" ("member_id", "created_at")
  INCLUDE ("status", "workflow_id", "started_at", "finished_at")
  WHERE "simulated" = false AND "eval_run_id" IS NULL AND "started_by" IS DISTINCT FROM 'loop_iteration';

CREATE INDEX "executions_dashboard_workflow_created_at_idx" ON "executions" ("workflow_id", "created_at")
  INCLUDE ("status", "member_id", "started_at", "finished_at")
  WHERE "simulated" = false AND "eval_run_id" IS NULL AND "started_by" IS DISTINCT FROM 'loop_iteration';
