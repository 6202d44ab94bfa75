-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "acted" BOOLEAN;

-- Backfill finished runs, as server/engine/run/acted.ts decides at the finish (in two passes here): a run acted when one of its
-- own steps (not one kept from the run it replays) recorded an effect ...
UPDATE "executions" e
   SET "acted" = EXISTS (
         SELECT 1 FROM "execution_steps" s
          WHERE s."execution_id" = e."id" AND s."copied_from" IS NULL
            AND jsonb_typeof(s."effects") = 'array' AND jsonb_array_length(s."effects") > 0)
 WHERE e."status" IN ('succeeded', 'failed', 'cancelled');

-- ... or when a run it called (a sub-workflow run, a loop iteration, at any depth) acted.
WITH RECURSIVE acting AS (
  SELECT "parent_execution_id" AS id FROM "executions" WHERE "acted" AND "parent_execution_id" IS NOT NULL
  UNION
  SELECT p."parent_execution_id" FROM "executions" p JOIN acting a ON p."id" = a.id WHERE p."parent_execution_id" IS NOT NULL
)
UPDATE "executions" SET "acted" = true
 WHERE "id" IN (SELECT id FROM acting) AND "status" IN ('succeeded', 'failed', 'cancelled') AND "acted" = false;

-- CreateIndex
CREATE INDEX "executions_member_id_acted_created_at_id_idx" ON "executions"("member_id", "acted", "created_at" DESC, "id" DESC);
