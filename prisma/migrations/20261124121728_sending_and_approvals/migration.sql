-- CreateTable
CREATE TABLE "outbound_messages" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "mailbox_address" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "review_status" TEXT NOT NULL,
    "review_reason" TEXT,
    "review_at" TIMESTAMPTZ(3),
    "snooze_until" TIMESTAMPTZ(3),
    "send_status" TEXT NOT NULL DEFAULT 'pending',
    "send_error_kind" TEXT,
    "send_error_message" TEXT,
    "send_attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "not_before" TIMESTAMPTZ(3),
    "send_runner_id" TEXT,
    "send_started_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "hold_id" UUID,
    "to_addrs" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "cc_addrs" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "bcc_addrs" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "subject" TEXT NOT NULL,
    "body_text" TEXT,
    "body_html" TEXT,
    "attachments" JSONB NOT NULL DEFAULT '[]',
    "related_message_id" UUID,
    "relation" TEXT,
    "in_reply_to" TEXT,
    "references" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "message_id_header" TEXT NOT NULL,
    "thread_id" UUID,
    "provider_message_id" TEXT,
    "draft_provider_key" TEXT,
    "content_purged_at" TIMESTAMPTZ(3),
    "execution_id" UUID,
    "workflow_id" UUID,
    "workflow_name" TEXT,
    "node_id" TEXT,
    "node_type" TEXT,
    "approval_id" UUID,
    "dedupe_key" TEXT,
    "send_client_token" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "outbound_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sending_journal" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "outbound_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "event" TEXT NOT NULL,
    "attempt" INTEGER,
    "result" TEXT,
    "provider_message_id" TEXT,
    "error_kind" TEXT,
    "error_message" TEXT,
    "reason" TEXT,
    "runner_id" TEXT,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sending_journal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approvals" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "execution_id" UUID NOT NULL,
    "workflow_id" UUID NOT NULL,
    "workflow_name" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "title" TEXT NOT NULL,
    "details" TEXT,
    "approver_emails" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "link_token_hash" TEXT,
    "trigger_message_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_by" TEXT,
    "decided_via" TEXT,
    "reason" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "send_holds" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "mailbox_id" UUID,
    "workflow_id" UUID,
    "reason" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_at" TIMESTAMPTZ(3),
    "released_by" UUID,

    CONSTRAINT "send_holds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbound_messages_member_id_created_at_id_idx" ON "outbound_messages"("member_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbound_messages_member_id_review_status_created_at_id_idx" ON "outbound_messages"("member_id", "review_status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbound_messages_mailbox_id_send_status_idx" ON "outbound_messages"("mailbox_id", "send_status");

-- CreateIndex
CREATE INDEX "outbound_messages_send_status_not_before_idx" ON "outbound_messages"("send_status", "not_before");

-- CreateIndex
CREATE INDEX "outbound_messages_workflow_id_created_at_idx" ON "outbound_messages"("workflow_id", "created_at");

-- CreateIndex
CREATE INDEX "outbound_messages_execution_id_idx" ON "outbound_messages"("execution_id");

-- CreateIndex
CREATE UNIQUE INDEX "outbound_messages_member_id_dedupe_key_key" ON "outbound_messages"("member_id", "dedupe_key");

-- CreateIndex
CREATE INDEX "sending_journal_member_id_created_at_id_idx" ON "sending_journal"("member_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "sending_journal_outbound_id_created_at_idx" ON "sending_journal"("outbound_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "approvals_link_token_hash_key" ON "approvals"("link_token_hash");

-- CreateIndex
CREATE INDEX "approvals_member_id_status_created_at_id_idx" ON "approvals"("member_id", "status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "approvals_status_expires_at_idx" ON "approvals"("status", "expires_at");

-- CreateIndex
CREATE INDEX "approvals_trigger_message_id_idx" ON "approvals"("trigger_message_id");

-- CreateIndex
CREATE UNIQUE INDEX "approvals_execution_id_node_id_key" ON "approvals"("execution_id", "node_id");

-- CreateIndex
CREATE INDEX "send_holds_member_id_released_at_idx" ON "send_holds"("member_id", "released_at");

-- CreateIndex
CREATE INDEX "send_holds_mailbox_id_released_at_idx" ON "send_holds"("mailbox_id", "released_at");

-- CreateIndex
CREATE INDEX "send_holds_workflow_id_released_at_idx" ON "send_holds"("workflow_id", "released_at");
