-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "eval_run_id" UUID;

-- CreateTable
CREATE TABLE "eval_runs" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "version_id" UUID NOT NULL,
    "baseline" TEXT NOT NULL,
    "baseline_version_id" UUID,
    "source" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "triggered" INTEGER NOT NULL DEFAULT 0,
    "would_send" INTEGER NOT NULL DEFAULT 0,
    "would_draft" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,
    "error" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "eval_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "eval_cases" (
    "id" UUID NOT NULL,
    "eval_run_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "message_id" UUID,
    "trigger_data" JSONB,
    "headline" JSONB,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "triggered" BOOLEAN,
    "path" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "effects" JSONB NOT NULL DEFAULT '[]',
    "error" JSONB,
    "baseline" JSONB,
    "changed" BOOLEAN NOT NULL DEFAULT false,
    "execution_id" UUID,
    "baseline_execution_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "eval_cases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "eval_runs_workflow_id_created_at_id_idx" ON "eval_runs"("workflow_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "eval_runs_member_id_created_at_idx" ON "eval_runs"("member_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "eval_cases_eval_run_id_status_index_idx" ON "eval_cases"("eval_run_id", "status", "index");

-- CreateIndex
CREATE UNIQUE INDEX "eval_cases_eval_run_id_index_key" ON "eval_cases"("eval_run_id", "index");

-- AddForeignKey
ALTER TABLE "eval_runs" ADD CONSTRAINT "eval_runs_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "eval_cases" ADD CONSTRAINT "eval_cases_eval_run_id_fkey" FOREIGN KEY ("eval_run_id") REFERENCES "eval_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
