-- DropIndex
DROP INDEX "executions_status_lease_until_idx";

-- Room on each page for the new versions of a row: a claim, a heartbeat, a release (and a step's end) then update
-- it in place, without a new entry in each of the table's indexes (a HOT update). New pages only; existing
-- pages get it as they are rewritten.
ALTER TABLE "executions" SET (fillfactor = 85);
ALTER TABLE "execution_steps" SET (fillfactor = 90);
