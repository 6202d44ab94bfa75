-- CreateTable
CREATE TABLE "workflows" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "graph" JSONB NOT NULL DEFAULT '{}',
    "draft_revision" INTEGER NOT NULL DEFAULT 1,
    "published_version_id" UUID,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "archived_at" TIMESTAMPTZ(3),
    "error_workflow_id" UUID,
    "max_concurrency" INTEGER,
    "execution_timeout_ms" INTEGER,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "test_message_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "webhook_token_hash" TEXT,
    "webhook_token_enc" TEXT,
    "webhook_secret_enc" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workflows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_versions" (
    "id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "number" INTEGER,
    "graph" JSONB NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "trigger_type" TEXT,
    "trigger_node_id" TEXT,
    "trigger_mailbox_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "used_mailbox_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workflow_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "executions" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "member_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "workflow_version_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "holds_slot" BOOLEAN NOT NULL DEFAULT true,
    "mailbox_id" UUID,
    "message_id" UUID,
    "message_headline" JSONB,
    "trigger_type" TEXT,
    "trigger_node_id" TEXT,
    "trigger_data" JSONB,
    "parent_execution_id" UUID,
    "parent_step_id" UUID,
    "started_by" TEXT,
    "retry_of_execution_id" UUID,
    "replay_from" TEXT,
    "error" JSONB,
    "working_ms" INTEGER NOT NULL DEFAULT 0,
    "timeout_ms" INTEGER NOT NULL,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "wait_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "executions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "execution_steps" (
    "id" UUID NOT NULL,
    "execution_id" UUID NOT NULL,
    "node_id" TEXT NOT NULL,
    "node_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "input" JSONB NOT NULL DEFAULT '{}',
    "output" TEXT,
    "data" JSONB,
    "data_truncated" BOOLEAN NOT NULL DEFAULT false,
    "duration_ms" INTEGER,
    "effects" JSONB NOT NULL DEFAULT '[]',
    "llm_skipped" BOOLEAN NOT NULL DEFAULT false,
    "attempts" JSONB NOT NULL DEFAULT '[]',
    "copied_from" TEXT,
    "warnings" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "loop" JSONB,
    "error" JSONB,
    "state" JSONB,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "attempt_started_at" TIMESTAMPTZ(3),
    "next_attempt_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "execution_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "execution_effects" (
    "effect_key" TEXT NOT NULL,
    "execution_id" UUID NOT NULL,
    "node_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'claimed',
    "result" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "execution_effects_pkey" PRIMARY KEY ("effect_key")
);

-- CreateTable
CREATE TABLE "incidents" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "execution_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "workflow_name" TEXT NOT NULL,
    "mailbox_id" UUID,
    "failed_at" TIMESTAMPTZ(3) NOT NULL,
    "error_summary" TEXT NOT NULL,
    "node_id" TEXT,
    "node_name" TEXT,
    "acknowledged_at" TIMESTAMPTZ(3),

    CONSTRAINT "incidents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_dispatch_queue" (
    "message_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "enqueued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_dispatch_queue_pkey" PRIMARY KEY ("message_id")
);

-- CreateTable
CREATE TABLE "mail_journal_entries" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "outcome" TEXT NOT NULL,
    "rule_ref" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mail_journal_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sender_exclusions" (
    "id" UUID NOT NULL,
    "member_id" UUID,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sender_exclusions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "workflow_id" UUID NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "execution_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("workflow_id","idempotency_key")
);

-- CreateTable
CREATE TABLE "message_signals" (
    "id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "thread_id" UUID,
    "name" TEXT NOT NULL,
    "execution_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_signals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workflow_schedules" (
    "workflow_id" UUID NOT NULL,
    "version_id" UUID NOT NULL,
    "cron" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL,
    "next_run_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workflow_schedules_pkey" PRIMARY KEY ("workflow_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "workflows_webhook_token_hash_key" ON "workflows"("webhook_token_hash");

-- CreateIndex
CREATE INDEX "workflows_member_id_created_at_idx" ON "workflows"("member_id", "created_at");

-- CreateIndex
CREATE INDEX "workflow_versions_workflow_id_created_at_idx" ON "workflow_versions"("workflow_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "workflow_versions_workflow_id_number_key" ON "workflow_versions"("workflow_id", "number");

-- CreateIndex
CREATE INDEX "executions_member_id_created_at_id_idx" ON "executions"("member_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "executions_workflow_id_created_at_id_idx" ON "executions"("workflow_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "executions_workflow_id_status_seq_idx" ON "executions"("workflow_id", "status", "seq");

-- CreateIndex
CREATE INDEX "executions_status_seq_idx" ON "executions"("status", "seq");

-- CreateIndex
CREATE INDEX "executions_status_lease_until_idx" ON "executions"("status", "lease_until");

-- CreateIndex
CREATE INDEX "executions_status_wait_until_idx" ON "executions"("status", "wait_until");

-- CreateIndex
CREATE INDEX "executions_message_id_idx" ON "executions"("message_id");

-- CreateIndex
CREATE INDEX "executions_parent_execution_id_idx" ON "executions"("parent_execution_id");

-- CreateIndex
CREATE INDEX "executions_retry_of_execution_id_idx" ON "executions"("retry_of_execution_id");

-- CreateIndex
CREATE UNIQUE INDEX "execution_steps_execution_id_node_id_key" ON "execution_steps"("execution_id", "node_id");

-- CreateIndex
CREATE INDEX "execution_effects_execution_id_idx" ON "execution_effects"("execution_id");

-- CreateIndex
CREATE INDEX "execution_effects_created_at_idx" ON "execution_effects"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "incidents_execution_id_key" ON "incidents"("execution_id");

-- CreateIndex
CREATE INDEX "incidents_member_id_failed_at_id_idx" ON "incidents"("member_id", "failed_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "mail_dispatch_queue_mailbox_id_enqueued_at_idx" ON "mail_dispatch_queue"("mailbox_id", "enqueued_at");

-- CreateIndex
CREATE UNIQUE INDEX "mail_journal_entries_message_id_key" ON "mail_journal_entries"("message_id");

-- CreateIndex
CREATE INDEX "mail_journal_entries_member_id_created_at_id_idx" ON "mail_journal_entries"("member_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "sender_exclusions_kind_value_idx" ON "sender_exclusions"("kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "sender_exclusions_member_id_kind_value_key" ON "sender_exclusions"("member_id", "kind", "value");

-- CreateIndex
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries"("created_at");

-- CreateIndex
CREATE INDEX "message_signals_thread_id_idx" ON "message_signals"("thread_id");

-- CreateIndex
CREATE UNIQUE INDEX "message_signals_message_id_name_key" ON "message_signals"("message_id", "name");

-- CreateIndex
CREATE INDEX "workflow_schedules_next_run_at_idx" ON "workflow_schedules"("next_run_at");

-- AddForeignKey
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workflow_versions" ADD CONSTRAINT "workflow_versions_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "execution_steps" ADD CONSTRAINT "execution_steps_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
