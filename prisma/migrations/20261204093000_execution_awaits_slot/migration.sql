-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "awaits_slot" BOOLEAN NOT NULL DEFAULT false;

-- Queued runs from before: whether their advance has let them go is not known, so each is given a job when admitted
-- (a job too many is harmless; a job too few would leave the run to the sweeper).
UPDATE "executions" SET "awaits_slot" = true WHERE "status" = 'queued';
