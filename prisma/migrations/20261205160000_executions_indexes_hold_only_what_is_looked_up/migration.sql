-- A run's status changes (queued → running → succeeded) cannot update its row in place: `status` is in indexes, so
-- each new version of the row writes an entry into every index of `executions` (17 of them), and the insert writes
-- one into each too (issue 25 §1: PostgreSQL's CPU and WAL per run). An index that holds only the rows its look-ups
-- can match skips the rest: each one below keeps its name and columns (schema.prisma still lists them; Prisma
-- cannot say WHERE) and gains the predicate every statement that reads it already states, so the planner proves
-- it (server/engine/run/partial-indexes.int.test.ts reads the plans).
-- A webhook run has no message, no parent, no earlier attempt and usually no serialisation key: no entry in these.
DROP INDEX "executions_message_id_idx";
CREATE INDEX "executions_message_id_idx" ON "executions" ("message_id") WHERE "message_id" IS NOT NULL;
DROP INDEX "executions_parent_execution_id_idx";
CREATE INDEX "executions_parent_execution_id_idx" ON "executions" ("parent_execution_id") WHERE "parent_execution_id" IS NOT NULL;
DROP INDEX "executions_retry_of_execution_id_idx";
CREATE INDEX "executions_retry_of_execution_id_idx" ON "executions" ("retry_of_execution_id") WHERE "retry_of_execution_id" IS NOT NULL;
DROP INDEX "executions_workflow_id_serial_key_seq_idx";
CREATE INDEX "executions_workflow_id_serial_key_seq_idx" ON "executions" ("workflow_id", "serial_key", "seq") WHERE "serial_key" IS NOT NULL;
-- Only a waiting run has a deadline to wake at (the sweeper, the member's waiting list).
DROP INDEX "executions_status_wait_until_idx";
CREATE INDEX "executions_status_wait_until_idx" ON "executions" ("status", "wait_until") WHERE "status" = 'waiting';
-- Live runs only (the sweeper's queued and expired-lease looks, the instance's running count): a finished run, the
-- table's bulk, leaves it. The member's list filtered by status reads the member's own indexes, not this one.
DROP INDEX "executions_status_seq_idx";
CREATE INDEX "executions_status_seq_idx" ON "executions" ("status", "seq") WHERE "status" IN ('queued', 'running', 'waiting');
-- The member's live runs holding no slot (MEMBER_MAX_SLOTLESS_RUNS): a slot-holding run never enters it.
DROP INDEX "executions_member_id_holds_slot_status_idx";
CREATE INDEX "executions_member_id_holds_slot_status_idx" ON "executions" ("member_id", "holds_slot", "status")
  WHERE "holds_slot" = false AND "status" IN ('queued', 'running', 'waiting');
