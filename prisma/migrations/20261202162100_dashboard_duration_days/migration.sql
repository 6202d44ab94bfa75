-- The dashboard's median duration without sorting a month of runs (server/domains/dashboard/rollups/median-sql.ts).
-- `medianDurationMs` is percentile_cont(0.5) of `finished_at − started_at` (whole ms) of the counted runs; a median
-- cannot be summed, but a histogram can: counted runs per UTC day of `created_at`, per member, workflow, mailbox
-- and log-scale duration bin. The statement adds the bins up to the one holding the middle rank(s), then reads only
-- that bin's raw runs of the period (the expression index below) to take the exact value: the answer is
-- byte-identical to percentile_cont's. Hand-written: Prisma cannot say NULLS NOT DISTINCT, a function, a trigger or
-- an expression index with INCLUDE and WHERE, so the table is not in schema.prisma (nothing in the app reads it
-- through Prisma).

-- The duration's bin: about 5 % wide (ln 1.05), 0 for 0 ms, -1 for a negative duration (a clock step). Only two
-- properties matter for exactness: the same function places a run in the rollup and in the refine step, and it never
-- decreases as the duration grows (ln is monotone), so the bins are ordered like the durations. Width is a trade:
-- narrower bins make more rollup rows to add up, wider ones more raw rows to read in the refine step; at the bench's
-- log-normal durations (σ 1.8), 5 % bins put ~0.4 % of a period's runs in the median's bin (3,000 of 855,000 at 1,000,000
-- runs in a month) and ~250 bins in a day's histogram.
-- Not STRICT, so PostgreSQL inlines it into the statements (a STRICT SQL function whose body it cannot prove strict
-- is called row by row through the SQL-function executor: the org-wide raw edges were 5× slower); null gives null anyway.
CREATE FUNCTION dashboard_duration_bin(ms double precision) RETURNS smallint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN ms < 0 THEN -1 ELSE floor(ln(1 + ms) / ln(1.05::double precision))::smallint END;

-- Two levels in one table: a run's own row (its member, workflow, mailbox: what the filters select) and its day's
-- organisation row (member, workflow and mailbox all null; a run always has a member and a workflow, so no run row
-- is mistaken for it). The organisation's 30 days are then ~250 bins × 30 days (6,400 rows at the bench's busy month),
-- whatever the number of workflows and mailboxes; the run rows of the same month are 190,000 for 855,000 runs (20
-- workflows, 2 mailboxes each): too many to add up in time for the org-wide figure.
CREATE TABLE "dashboard_duration_days" (
  "day" DATE NOT NULL,
  "member_id" UUID,
  "workflow_id" UUID,
  "mailbox_id" UUID,
  "bin" SMALLINT NOT NULL,
  "runs" INTEGER NOT NULL,
  CONSTRAINT "dashboard_duration_days_key" UNIQUE NULLS NOT DISTINCT ("day", "member_id", "workflow_id", "mailbox_id", "bin")
) WITH (fillfactor = 70);
-- The organisation's histogram; a member's or a workflow's reads its own rows, not the organisation's. `runs` is in
-- no index and pages keep room (fillfactor 70), so the trigger's increments are HOT updates that write no index
-- entry; the reads fetch a few thousand rows from the heap instead of reading the index alone.
CREATE INDEX "dashboard_duration_days_org_idx" ON "dashboard_duration_days" ("day") WHERE "member_id" IS NULL;
CREATE INDEX "dashboard_duration_days_member_idx" ON "dashboard_duration_days" ("member_id", "day");
CREATE INDEX "dashboard_duration_days_workflow_idx" ON "dashboard_duration_days" ("workflow_id", "day");

-- Kept where the facts are written, in the writer's transaction: a rolled-back write leaves no trace, and every
-- code path (Prisma, raw SQL, the engine) is seen. A run's contribution is its key (UTC day of created_at, member,
-- workflow, mailbox, bin); the trigger subtracts the old key's and adds the new one's. The counted runs are exactly
-- executions.ts's `countedRuns`, with both instants set.
CREATE FUNCTION dashboard_duration_days_track() RETURNS trigger
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
  -- The run's own row and its day's organisation row, in that order (every writer locks them in the same order).
  IF old_counted THEN
    INSERT INTO dashboard_duration_days AS d ("day", "member_id", "workflow_id", "mailbox_id", "bin", "runs")
    VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, OLD.member_id, OLD.workflow_id, OLD.mailbox_id, old_bin, -1),
           ((OLD.created_at AT TIME ZONE 'UTC')::date, NULL, NULL, NULL, old_bin, -1)
    ON CONFLICT ("day", "member_id", "workflow_id", "mailbox_id", "bin") DO UPDATE SET "runs" = d."runs" + excluded."runs";
  END IF;
  IF new_counted THEN
    INSERT INTO dashboard_duration_days AS d ("day", "member_id", "workflow_id", "mailbox_id", "bin", "runs")
    VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.member_id, NEW.workflow_id, NEW.mailbox_id, new_bin, 1),
           ((NEW.created_at AT TIME ZONE 'UTC')::date, NULL, NULL, NULL, new_bin, 1)
    ON CONFLICT ("day", "member_id", "workflow_id", "mailbox_id", "bin") DO UPDATE SET "runs" = d."runs" + excluded."runs";
  END IF;
  RETURN NULL;
END
$$;

-- Cheap for the engine (issue 25): most inserts are queued runs without a start, and most updates touch the status,
-- the lease or the wake counter, none of which is in the key: the WHEN clauses keep those from calling the function.
CREATE TRIGGER "dashboard_duration_days_insert" AFTER INSERT ON "executions" FOR EACH ROW
  WHEN (NEW.started_at IS NOT NULL AND NEW.finished_at IS NOT NULL)
  EXECUTE FUNCTION dashboard_duration_days_track();
CREATE TRIGGER "dashboard_duration_days_update" AFTER UPDATE OF "started_at", "finished_at", "created_at", "member_id", "workflow_id", "mailbox_id", "simulated", "eval_run_id", "started_by" ON "executions" FOR EACH ROW
  WHEN ((OLD.started_at IS NOT NULL AND OLD.finished_at IS NOT NULL OR NEW.started_at IS NOT NULL AND NEW.finished_at IS NOT NULL)
    AND (OLD.started_at, OLD.finished_at, OLD.created_at, OLD.member_id, OLD.workflow_id, OLD.mailbox_id, OLD.simulated, OLD.eval_run_id, OLD.started_by)
        IS DISTINCT FROM (NEW.started_at, NEW.finished_at, NEW.created_at, NEW.member_id, NEW.workflow_id, NEW.mailbox_id, NEW.simulated, NEW.eval_run_id, NEW.started_by))
  EXECUTE FUNCTION dashboard_duration_days_track();
CREATE TRIGGER "dashboard_duration_days_delete" AFTER DELETE ON "executions" FOR EACH ROW
  WHEN (OLD.started_at IS NOT NULL AND OLD.finished_at IS NOT NULL)
  EXECUTE FUNCTION dashboard_duration_days_track();

-- Backfill: the runs already there (the reconciler's grouping, server/domains/dashboard/rollups/durations-reconcile.ts).
INSERT INTO dashboard_duration_days ("day", "member_id", "workflow_id", "mailbox_id", "bin", "runs")
SELECT r.day, r.member_id, r.workflow_id, r.mailbox_id, r.bin, count(*)::int
  FROM (SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day, e.member_id, e.workflow_id, e.mailbox_id,
               dashboard_duration_bin(round(date_part('epoch', e.finished_at - e.started_at) * 1000)) AS bin
          FROM executions e
         WHERE e.simulated = false AND e.eval_run_id IS NULL AND e.started_by IS DISTINCT FROM 'loop_iteration'
           AND e.finished_at IS NOT NULL AND e.started_at IS NOT NULL) r
 GROUP BY GROUPING SETS ((r.day, r.member_id, r.workflow_id, r.mailbox_id, r.bin), (r.day, r.bin));

-- The refine step: the counted runs of one bin within a period, in creation order, with what the filters and the
-- duration need (an index-only scan: the bin's runs are then sorted, a few thousand at most, instead of the period's).
CREATE INDEX "executions_dashboard_duration_bin_idx" ON "executions" (dashboard_duration_bin(round(date_part('epoch', finished_at - started_at) * 1000)), "created_at")
  INCLUDE ("member_id", "workflow_id", "mailbox_id", "started_at", "finished_at")
  WHERE "simulated" = false AND "eval_run_id" IS NULL AND "started_by" IS DISTINCT FROM 'loop_iteration'
    AND "finished_at" IS NOT NULL AND "started_at" IS NOT NULL;
