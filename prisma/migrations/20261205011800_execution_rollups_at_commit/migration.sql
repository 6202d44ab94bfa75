-- The runs' dashboard rollups (dashboard_run_hours, dashboard_duration_days) are kept at the writing transaction's
-- commit rather than at its statement (issue 25 §1). A run's end moves it into a terminal row shared by every run of
-- its workflow's hour (and, for the durations, by every run of the instance's day in its bin): the rollup's upsert
-- locks that row until the transaction ends. Fired at the statement, the lock was held across the rest of the
-- transaction's round trips to the runner (each one waiting for its busy event loop), so at 20 runs in flight every
-- end waited ≈ 20 ms for the one before it. Deferred, the upsert runs inside COMMIT: the lock is held for the
-- upsert and the WAL flush only. Still in the writing transaction, so still exact and rolled back with it; the same
-- functions, conditions and row images (a deferred row trigger keeps the OLD and NEW of its event).

DROP TRIGGER "dashboard_run_hours_insert" ON "executions";
DROP TRIGGER "dashboard_run_hours_update" ON "executions";
DROP TRIGGER "dashboard_run_hours_delete" ON "executions";

CREATE CONSTRAINT TRIGGER "dashboard_run_hours_insert" AFTER INSERT ON "executions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.status IN ('succeeded', 'failed', 'cancelled'))
  EXECUTE FUNCTION "dashboard_run_hours_apply"();
CREATE CONSTRAINT TRIGGER "dashboard_run_hours_update"
  AFTER UPDATE OF "status", "created_at", "member_id", "workflow_id", "mailbox_id", "simulated", "eval_run_id", "started_by" ON "executions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.status IN ('succeeded', 'failed', 'cancelled') OR NEW.status IN ('succeeded', 'failed', 'cancelled'))
        AND (OLD.status, OLD.created_at, OLD.member_id, OLD.workflow_id, OLD.mailbox_id, OLD.simulated, OLD.eval_run_id, OLD.started_by)
            IS DISTINCT FROM (NEW.status, NEW.created_at, NEW.member_id, NEW.workflow_id, NEW.mailbox_id, NEW.simulated, NEW.eval_run_id, NEW.started_by))
  EXECUTE FUNCTION "dashboard_run_hours_apply"();
CREATE CONSTRAINT TRIGGER "dashboard_run_hours_delete" AFTER DELETE ON "executions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.status IN ('succeeded', 'failed', 'cancelled'))
  EXECUTE FUNCTION "dashboard_run_hours_apply"();

DROP TRIGGER "dashboard_duration_days_insert" ON "executions";
DROP TRIGGER "dashboard_duration_days_update" ON "executions";
DROP TRIGGER "dashboard_duration_days_delete" ON "executions";

CREATE CONSTRAINT TRIGGER "dashboard_duration_days_insert" AFTER INSERT ON "executions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.started_at IS NOT NULL AND NEW.finished_at IS NOT NULL)
  EXECUTE FUNCTION dashboard_duration_days_track();
CREATE CONSTRAINT TRIGGER "dashboard_duration_days_update"
  AFTER UPDATE OF "started_at", "finished_at", "created_at", "member_id", "workflow_id", "mailbox_id", "simulated", "eval_run_id", "started_by" ON "executions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD.started_at IS NOT NULL AND OLD.finished_at IS NOT NULL OR NEW.started_at IS NOT NULL AND NEW.finished_at IS NOT NULL)
    AND (OLD.started_at, OLD.finished_at, OLD.created_at, OLD.member_id, OLD.workflow_id, OLD.mailbox_id, OLD.simulated, OLD.eval_run_id, OLD.started_by)
        IS DISTINCT FROM (NEW.started_at, NEW.finished_at, NEW.created_at, NEW.member_id, NEW.workflow_id, NEW.mailbox_id, NEW.simulated, NEW.eval_run_id, NEW.started_by))
  EXECUTE FUNCTION dashboard_duration_days_track();
CREATE CONSTRAINT TRIGGER "dashboard_duration_days_delete" AFTER DELETE ON "executions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.started_at IS NOT NULL AND OLD.finished_at IS NOT NULL)
  EXECUTE FUNCTION dashboard_duration_days_track();
