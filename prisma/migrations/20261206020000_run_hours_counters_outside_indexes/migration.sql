-- Every counted run's end upserts its hour's `dashboard_run_hours` row (runs + 1, last_created_at), and both
-- counters were INCLUDEd in the member's and the workflow's indexes so that those reads were index-only. An update
-- that changes an indexed column cannot be HOT: each end wrote a new heap version and an entry in all three indexes
-- (560-574 bytes of WAL), and the row of a busy hour left thousands of dead versions behind (the engine bench of
-- issue 25: 5,225 dead rows for 2 live ones, none of 8,153 updates HOT), which every later upsert walks past.
-- Keyed by what the reads filter on only, with room left on each page (fillfactor 70, as dashboard_duration_days),
-- the increments are HOT: one heap version, no index entry (174 bytes of WAL), pruned in place. The member's and the
-- workflow's reads fetch their rows from the heap instead, as the organisation's (through the key) always did: a
-- member's month is a few thousand rows at the bench's busiest (bench/README.md, 2026-12-06).
ALTER TABLE "dashboard_run_hours" SET (fillfactor = 70);
DROP INDEX "dashboard_run_hours_member_hour_idx";
CREATE INDEX "dashboard_run_hours_member_hour_idx" ON "dashboard_run_hours" ("member_id", "hour");
DROP INDEX "dashboard_run_hours_workflow_hour_idx";
CREATE INDEX "dashboard_run_hours_workflow_hour_idx" ON "dashboard_run_hours" ("workflow_id", "hour");
