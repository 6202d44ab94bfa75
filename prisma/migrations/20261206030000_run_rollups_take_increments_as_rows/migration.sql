-- A run's end no longer takes a lock on the dashboard's shared rollup rows (issue 25 §1).
--
-- Every counted run's end upserted its hour's `dashboard_run_hours` row and its day's `dashboard_duration_days` rows
-- (the organisation's row of a day and duration bin is every workflow's). Fired at COMMIT (migration
-- `execution_rollups_at_commit`), the upsert still holds the row until that commit's WAL flush, so the ends of one
-- hour queued one flush after another, and no two of them could share a flush: the engine bench measured the
-- upserts at 5.6 and 10.1 ms per end on average, nearly all of it waiting, and the admission's lock waits behind them.
--
-- Now an end appends its increment as a row of a delta table (no unique key: nothing to wait for), and the
-- dashboard reads the rollup plus the pending increments (the `…_now` views below: one snapshot sees a run's row and
-- its increment together, so the figures stay exact). `dashboard_rollups_fold()` moves the pending increments into
-- the rollups, one statement per table; the runner calls it every minute (`dashboard-fold`) and each reconcile
-- calls it first, inside its own snapshot, so a reconcile never counts a run twice.
--
-- What is not a plain increment stays where it was:
-- - durations are only ever added up (a run leaving a bin is −1), so every change of them is a delta row;
-- - a run leaving an hour's row (a deletion, a moved run) also maintains `last_created_at` and deletes rows that
--   fall to 0: the trigger first folds that row's own pending increments (an index on the delta's key), then
--   subtracts from the rollup row as before. That path is rare and holds one rollup row, as it did.

CREATE TABLE "dashboard_run_hour_deltas" (
  "hour" TIMESTAMPTZ(3) NOT NULL,
  "member_id" UUID NOT NULL,
  "workflow_id" UUID NOT NULL,
  "mailbox_id" UUID,
  "status" TEXT NOT NULL,
  "runs" INTEGER NOT NULL,
  "last_created_at" TIMESTAMPTZ(3) NOT NULL
);
-- For the rare path's fold of one row's increments; the fold and the reads scan the (small) table.
CREATE INDEX "dashboard_run_hour_deltas_key_idx" ON "dashboard_run_hour_deltas" ("hour", "member_id", "workflow_id", "mailbox_id", "status");

-- A run's own key only: the organisation's row of the day and bin is derived when read and when folded.
CREATE TABLE "dashboard_duration_day_deltas" (
  "day" DATE NOT NULL,
  "member_id" UUID NOT NULL,
  "workflow_id" UUID NOT NULL,
  "mailbox_id" UUID,
  "bin" SMALLINT NOT NULL,
  "runs" INTEGER NOT NULL
);

-- What the dashboard reads: the rollup and its pending increments, as rows of the rollup's shape (summed by the
-- statements, which already sum rollup rows).
CREATE VIEW "dashboard_run_hours_now" AS
  SELECT "hour", "member_id", "workflow_id", "mailbox_id", "status", "runs", "last_created_at" FROM "dashboard_run_hours"
  UNION ALL
  SELECT "hour", "member_id", "workflow_id", "mailbox_id", "status", "runs", "last_created_at" FROM "dashboard_run_hour_deltas";
CREATE VIEW "dashboard_duration_days_now" AS
  SELECT "day", "member_id", "workflow_id", "mailbox_id", "bin", "runs" FROM "dashboard_duration_days"
  UNION ALL
  SELECT "day", "member_id", "workflow_id", "mailbox_id", "bin", "runs" FROM "dashboard_duration_day_deltas"
  UNION ALL
  SELECT "day", NULL::uuid, NULL::uuid, NULL::uuid, "bin", "runs" FROM "dashboard_duration_day_deltas";

-- One row's pending increments into the rollup (the rare path below, before it subtracts).
CREATE FUNCTION "dashboard_run_hours_fold_row"(at_hour timestamptz, member uuid, workflow uuid, mailbox uuid, run_status text) RETURNS void
  LANGUAGE sql AS $$
  WITH moved AS (
    DELETE FROM dashboard_run_hour_deltas d
     WHERE d.hour = at_hour AND d.member_id = member AND d.workflow_id = workflow
       AND d.mailbox_id IS NOT DISTINCT FROM mailbox AND d.status = run_status
    RETURNING d.runs, d.last_created_at
  )
  INSERT INTO dashboard_run_hours AS h (hour, member_id, workflow_id, mailbox_id, status, runs, last_created_at)
  SELECT at_hour, member, workflow, mailbox, run_status, sum(m.runs)::int, max(m.last_created_at) FROM moved m HAVING count(*) > 0
  ON CONFLICT (hour, member_id, workflow_id, mailbox_id, status)
  DO UPDATE SET runs = h.runs + excluded.runs, last_created_at = greatest(h.last_created_at, excluded.last_created_at);
$$;

CREATE OR REPLACE FUNCTION "dashboard_run_hours_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  remaining integer;
  latest timestamptz;
  old_hour timestamptz;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE')
     AND OLD.status IN ('succeeded', 'failed', 'cancelled')
     AND OLD.simulated = false AND OLD.eval_run_id IS NULL AND OLD.started_by IS DISTINCT FROM 'loop_iteration' THEN
    old_hour := date_trunc('hour', OLD.created_at, 'UTC');
    PERFORM dashboard_run_hours_fold_row(old_hour, OLD.member_id, OLD.workflow_id, OLD.mailbox_id, OLD.status);
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
    INSERT INTO dashboard_run_hour_deltas (hour, member_id, workflow_id, mailbox_id, status, runs, last_created_at)
    VALUES (date_trunc('hour', NEW.created_at, 'UTC'), NEW.member_id, NEW.workflow_id, NEW.mailbox_id, NEW.status, 1, NEW.created_at);
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION dashboard_duration_days_track() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  old_counted boolean := false;
  new_counted boolean := false;
  old_bin smallint;
  new_bin smallint;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_counted := OLD.simulated = false AND OLD.eval_run_id IS NULL AND OLD.started_by IS DISTINCT FROM 'loop_iteration'
      AND OLD.started_at IS NOT NULL AND OLD.finished_at IS NOT NULL;
    IF old_counted THEN old_bin := dashboard_duration_bin(round(date_part('epoch', OLD.finished_at - OLD.started_at) * 1000)); END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_counted := NEW.simulated = false AND NEW.eval_run_id IS NULL AND NEW.started_by IS DISTINCT FROM 'loop_iteration'
      AND NEW.started_at IS NOT NULL AND NEW.finished_at IS NOT NULL;
    IF new_counted THEN new_bin := dashboard_duration_bin(round(date_part('epoch', NEW.finished_at - NEW.started_at) * 1000)); END IF;
  END IF;
  -- The same key before and after (e.g. started_by null → replay): nothing to move.
  IF old_counted AND new_counted AND old_bin = new_bin AND OLD.member_id = NEW.member_id AND OLD.workflow_id = NEW.workflow_id
     AND OLD.mailbox_id IS NOT DISTINCT FROM NEW.mailbox_id AND (OLD.created_at AT TIME ZONE 'UTC')::date = (NEW.created_at AT TIME ZONE 'UTC')::date THEN
    RETURN NULL;
  END IF;
  IF old_counted THEN
    INSERT INTO dashboard_duration_day_deltas ("day", "member_id", "workflow_id", "mailbox_id", "bin", "runs")
    VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, OLD.member_id, OLD.workflow_id, OLD.mailbox_id, old_bin, -1);
  END IF;
  IF new_counted THEN
    INSERT INTO dashboard_duration_day_deltas ("day", "member_id", "workflow_id", "mailbox_id", "bin", "runs")
    VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.member_id, NEW.workflow_id, NEW.mailbox_id, new_bin, 1);
  END IF;
  RETURN NULL;
END
$$;

-- Moves every pending increment into its rollup, one statement per table, and answers how many increments it moved.
-- Folds take turns (an advisory lock) and write the rollup rows in key order, so two never wait on each other's
-- rows. Callers: the runner's `dashboard-fold` task (every minute) and each reconcile, first, in its own snapshot.
CREATE FUNCTION "dashboard_rollups_fold"() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  hours_moved integer;
  days_moved integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('dashboard:rollups-fold'));
  WITH moved AS (
    DELETE FROM dashboard_run_hour_deltas RETURNING *
  ), folded AS (
    INSERT INTO dashboard_run_hours AS h (hour, member_id, workflow_id, mailbox_id, status, runs, last_created_at)
    SELECT m.hour, m.member_id, m.workflow_id, m.mailbox_id, m.status, sum(m.runs)::int, max(m.last_created_at)
      FROM moved m
     GROUP BY m.hour, m.member_id, m.workflow_id, m.mailbox_id, m.status
     ORDER BY m.hour, m.member_id, m.workflow_id, m.mailbox_id, m.status
    ON CONFLICT (hour, member_id, workflow_id, mailbox_id, status)
    DO UPDATE SET runs = h.runs + excluded.runs, last_created_at = greatest(h.last_created_at, excluded.last_created_at)
  )
  SELECT count(*)::int INTO hours_moved FROM moved;
  WITH moved AS (
    DELETE FROM dashboard_duration_day_deltas RETURNING *
  ), summed AS (
    -- The run's own row and its day's organisation row (member, workflow and mailbox null), as the trigger wrote them.
    SELECT m.day, m.member_id, m.workflow_id, m.mailbox_id, m.bin, sum(m.runs)::int AS runs
      FROM moved m
     GROUP BY GROUPING SETS ((m.day, m.member_id, m.workflow_id, m.mailbox_id, m.bin), (m.day, m.bin))
  ), folded AS (
    INSERT INTO dashboard_duration_days AS d ("day", "member_id", "workflow_id", "mailbox_id", "bin", "runs")
    SELECT s.day, s.member_id, s.workflow_id, s.mailbox_id, s.bin, s.runs
      FROM summed s
     WHERE s.runs <> 0
     ORDER BY s.day, s.member_id NULLS FIRST, s.workflow_id NULLS FIRST, s.mailbox_id NULLS FIRST, s.bin
    ON CONFLICT ("day", "member_id", "workflow_id", "mailbox_id", "bin") DO UPDATE SET "runs" = d."runs" + excluded."runs"
  )
  SELECT count(*)::int INTO days_moved FROM moved;
  RETURN hours_moved + days_moved;
END;
$$;
