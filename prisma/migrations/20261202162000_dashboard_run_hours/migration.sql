-- The executions figures of the dashboard (server/domains/dashboard/executions.ts) read ended runs from an hourly
-- rollup instead of the raw rows: an org-wide 30-day window at 1,000,000 runs is ~855,000 rows per statement read
-- raw (about a second on the 2-core box), and a few hundred thousand rollup rows at most (one per hour, member,
-- workflow, mailbox and terminal status that had runs).
--
-- One row per counted run's creation hour (whole UTC hours: `date_trunc('hour', created_at, 'UTC')`, never the
-- session's zone) and terminal status. Counted runs are the route's own (`countedRuns`): live (simulated = false),
-- not evaluation runs, not loop iterations. `last_created_at` is max(created_at) of the row's runs, for
-- `lastRunAt`. Hand-written, with no Prisma model: Prisma can say neither NULLS NOT DISTINCT (mailbox_id is null
-- for runs not started by mail, and those must still meet on one row) nor a unique key with a nullable column;
-- only the dashboard's raw SQL reads the table. No foreign keys: the rollup follows the raw rows, by the trigger
-- below and the runner's `dashboard-reconcile` task (server/domains/dashboard/rollups/runs.ts).
CREATE TABLE "dashboard_run_hours" (
  "hour" TIMESTAMPTZ(3) NOT NULL,
  "member_id" UUID NOT NULL,
  "workflow_id" UUID NOT NULL,
  "mailbox_id" UUID,
  "status" TEXT NOT NULL,
  "runs" INTEGER NOT NULL,
  "last_created_at" TIMESTAMPTZ(3) NOT NULL
);

-- The key, hour first: the org-wide window is a range scan of it (and ON CONFLICT's arbiter).
CREATE UNIQUE INDEX "dashboard_run_hours_key" ON "dashboard_run_hours" ("hour", "member_id", "workflow_id", "mailbox_id", "status") NULLS NOT DISTINCT;
-- `scope=me` and `workflowId`: one member's or one workflow's hours, read by index only.
CREATE INDEX "dashboard_run_hours_member_hour_idx" ON "dashboard_run_hours" ("member_id", "hour") INCLUDE ("workflow_id", "mailbox_id", "status", "runs", "last_created_at");
CREATE INDEX "dashboard_run_hours_workflow_hour_idx" ON "dashboard_run_hours" ("workflow_id", "hour") INCLUDE ("member_id", "mailbox_id", "status", "runs", "last_created_at");

-- Live statuses (queued, running, waiting) are not rolled up: a run moves between them many times (every wait,
-- every lease), and rolling them up would put a hot-row upsert on each of the engine's transitions. The
-- statements count them raw over the rolled hours instead; this index holds only them (a few in a healthy
-- instance: runs end), with every column the statements read, so that read is an index-only scan of a small
-- index. Its predicate is the statements' own text, so the planner proves it.
CREATE INDEX "executions_dashboard_live_created_at_idx" ON "executions" ("created_at")
  INCLUDE ("member_id", "workflow_id", "mailbox_id", "status")
  WHERE "status" IN ('queued', 'running', 'waiting') AND "simulated" = false AND "eval_run_id" IS NULL AND "started_by" IS DISTINCT FROM 'loop_iteration';

-- Keeps the rollup in step with executions, in the writing transaction: a rolled-back write (a crash) rolls its
-- rollup change back with it, and every path that writes a run (Prisma, raw SQL, a replay) is seen. It takes the
-- old row's contribution away and adds the new one's. A row that falls to 0 runs is deleted, and when the run
-- taken away was the row's latest, `last_created_at` is read again from the hour's raw rows (one member's hour:
-- executions_dashboard_member_created_at_idx), so a deletion or a move leaves the rollup exact rather than
-- waiting for the reconcile task. Statuses are compared as text: the function is the only place that knows
-- which are terminal, with the WHEN clauses below.
CREATE FUNCTION "dashboard_run_hours_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  remaining integer;
  latest timestamptz;
  old_hour timestamptz;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE')
     AND OLD.status IN ('succeeded', 'failed', 'cancelled')
     AND OLD.simulated = false AND OLD.eval_run_id IS NULL AND OLD.started_by IS DISTINCT FROM 'loop_iteration' THEN
    old_hour := date_trunc('hour', OLD.created_at, 'UTC');
    UPDATE dashboard_run_hours h SET runs = h.runs - 1
     WHERE h.hour = old_hour AND h.member_id = OLD.member_id AND h.workflow_id = OLD.workflow_id
       AND h.mailbox_id IS NOT DISTINCT FROM OLD.mailbox_id AND h.status = OLD.status
    RETURNING h.runs, h.last_created_at INTO remaining, latest;
    IF remaining IS NOT NULL AND remaining <= 0 THEN
      DELETE FROM dashboard_run_hours h
       WHERE h.hour = old_hour AND h.member_id = OLD.member_id AND h.workflow_id = OLD.workflow_id
         AND h.mailbox_id IS NOT DISTINCT FROM OLD.mailbox_id AND h.status = OLD.status AND h.runs <= 0;
    ELSIF remaining IS NOT NULL AND latest <= OLD.created_at THEN
      -- An AFTER trigger sees its statement's own change: the run taken away is no longer among these rows.
      UPDATE dashboard_run_hours h SET last_created_at = coalesce((
        SELECT max(e.created_at) FROM executions e
         WHERE e.member_id = OLD.member_id AND e.created_at >= old_hour AND e.created_at < old_hour + interval '1 hour'
           AND e.simulated = false AND e.eval_run_id IS NULL AND e.started_by IS DISTINCT FROM 'loop_iteration'
           AND e.workflow_id = OLD.workflow_id AND e.mailbox_id IS NOT DISTINCT FROM OLD.mailbox_id AND e.status = OLD.status), h.last_created_at)
       WHERE h.hour = old_hour AND h.member_id = OLD.member_id AND h.workflow_id = OLD.workflow_id
         AND h.mailbox_id IS NOT DISTINCT FROM OLD.mailbox_id AND h.status = OLD.status;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE')
     AND NEW.status IN ('succeeded', 'failed', 'cancelled')
     AND NEW.simulated = false AND NEW.eval_run_id IS NULL AND NEW.started_by IS DISTINCT FROM 'loop_iteration' THEN
    INSERT INTO dashboard_run_hours AS h (hour, member_id, workflow_id, mailbox_id, status, runs, last_created_at)
    VALUES (date_trunc('hour', NEW.created_at, 'UTC'), NEW.member_id, NEW.workflow_id, NEW.mailbox_id, NEW.status, 1, NEW.created_at)
    ON CONFLICT (hour, member_id, workflow_id, mailbox_id, status)
    DO UPDATE SET runs = h.runs + 1, last_created_at = greatest(h.last_created_at, excluded.last_created_at);
  END IF;
  RETURN NULL;
END;
$$;

-- Fired only when a run enters or leaves a counted terminal row: inserts are mostly `queued` and the engine's
-- live transitions (queued → running → waiting → running) change no rollup, so they do not call the function
-- (the engine's throughput is measured, issue 25). A terminal run's other updates (acted, lease, updated_at)
-- change no key column: the WHEN clause skips them too.
CREATE TRIGGER "dashboard_run_hours_insert" AFTER INSERT ON "executions" FOR EACH ROW
  WHEN (NEW.status IN ('succeeded', 'failed', 'cancelled'))
  EXECUTE FUNCTION "dashboard_run_hours_apply"();
CREATE TRIGGER "dashboard_run_hours_update"
  AFTER UPDATE OF "status", "created_at", "member_id", "workflow_id", "mailbox_id", "simulated", "eval_run_id", "started_by" ON "executions" FOR EACH ROW
  WHEN ((OLD.status IN ('succeeded', 'failed', 'cancelled') OR NEW.status IN ('succeeded', 'failed', 'cancelled'))
        AND (OLD.status, OLD.created_at, OLD.member_id, OLD.workflow_id, OLD.mailbox_id, OLD.simulated, OLD.eval_run_id, OLD.started_by)
            IS DISTINCT FROM (NEW.status, NEW.created_at, NEW.member_id, NEW.workflow_id, NEW.mailbox_id, NEW.simulated, NEW.eval_run_id, NEW.started_by))
  EXECUTE FUNCTION "dashboard_run_hours_apply"();
CREATE TRIGGER "dashboard_run_hours_delete" AFTER DELETE ON "executions" FOR EACH ROW
  WHEN (OLD.status IN ('succeeded', 'failed', 'cancelled'))
  EXECUTE FUNCTION "dashboard_run_hours_apply"();

-- An instance upgrading has history: the rollup starts from every run it already has.
INSERT INTO "dashboard_run_hours" ("hour", "member_id", "workflow_id", "mailbox_id", "status", "runs", "last_created_at")
SELECT date_trunc('hour', "created_at", 'UTC'), "member_id", "workflow_id", "mailbox_id", "status", count(*)::int, max("created_at")
  FROM "executions"
 WHERE "status" IN ('succeeded', 'failed', 'cancelled') AND "simulated" = false AND "eval_run_id" IS NULL AND "started_by" IS DISTINCT FROM 'loop_iteration'
 GROUP BY 1, 2, 3, 4, 5;
