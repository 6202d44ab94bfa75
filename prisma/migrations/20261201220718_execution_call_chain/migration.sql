-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "call_depth" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "caller_workflow_ids" UUID[] DEFAULT ARRAY[]::UUID[];

-- CreateIndex
CREATE INDEX "executions_member_id_holds_slot_status_idx" ON "executions"("member_id", "holds_slot", "status");
