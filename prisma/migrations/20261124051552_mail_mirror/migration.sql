-- CreateTable
CREATE TABLE "oauth_apps" (
    "provider" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_enc" TEXT NOT NULL,
    "client_secret_hint" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth_apps_pkey" PRIMARY KEY ("provider")
);

-- CreateTable
CREATE TABLE "oauth_flows" (
    "id" UUID NOT NULL,
    "state_hash" TEXT NOT NULL,
    "member_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "capability" TEXT NOT NULL,
    "code_verifier_enc" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credentials" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "scope" TEXT NOT NULL DEFAULT 'member',
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT,
    "integration" TEXT,
    "environment" TEXT,
    "data_enc" TEXT NOT NULL,
    "hint" TEXT,
    "capabilities" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "account_email" TEXT,
    "oauth_scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mailboxes" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "sync_mode" TEXT NOT NULL DEFAULT 'full',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "credential_id" UUID,
    "connected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disconnected_at" TIMESTAMPTZ(3),
    "last_delta_at" TIMESTAMPTZ(3),
    "last_successful_sync_at" TIMESTAMPTZ(3),
    "last_error" JSONB,
    "failure_count" INTEGER NOT NULL DEFAULT 0,
    "message_count" INTEGER NOT NULL DEFAULT 0,
    "analyzed_at" TIMESTAMPTZ(3),
    "initial_sync_done_at" TIMESTAMPTZ(3),
    "backfill_status" TEXT,
    "backfill_progress_pct" DOUBLE PRECISION,
    "backfill_oldest_at" TIMESTAMPTZ(3),
    "backfill_since" TIMESTAMPTZ(3),
    "sync_state" JSONB NOT NULL DEFAULT '{}',
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mailboxes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_folders" (
    "id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "role" TEXT,
    "name" TEXT,
    "label" TEXT,
    "parent_key" TEXT,
    "color" TEXT,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "delimiter" TEXT,
    "provider_id" TEXT,
    "uid_validity" BIGINT,
    "uid_next" BIGINT,
    "synced_uid" BIGINT,
    "oldest_uid" BIGINT,
    "highest_modseq" BIGINT,
    "delta_token" TEXT,
    "selectable" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mail_folders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_threads" (
    "id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "subject" TEXT,
    "subject_key" TEXT,
    "last_message_at" TIMESTAMPTZ(3) NOT NULL,
    "message_count" INTEGER NOT NULL DEFAULT 0,
    "unread_count" INTEGER NOT NULL DEFAULT 0,
    "flagged" BOOLEAN NOT NULL DEFAULT false,
    "has_attachments" BOOLEAN NOT NULL DEFAULT false,
    "participants" JSONB NOT NULL DEFAULT '[]',
    "participant_count" INTEGER NOT NULL DEFAULT 0,
    "snippet" TEXT,
    "classification" JSONB NOT NULL DEFAULT '{}',
    "folder_keys" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mail_threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_messages" (
    "id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "thread_id" UUID,
    "provider_key" TEXT NOT NULL,
    "folder_key" TEXT NOT NULL,
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "uid" BIGINT,
    "uid_validity" BIGINT,
    "modseq" BIGINT,
    "message_id_header" TEXT,
    "in_reply_to" TEXT,
    "references" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "subject" TEXT,
    "snippet" TEXT,
    "from_name" TEXT,
    "from_email" TEXT,
    "recipients" JSONB NOT NULL DEFAULT '{}',
    "date_header" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "seen" BOOLEAN NOT NULL DEFAULT false,
    "flagged" BOOLEAN NOT NULL DEFAULT false,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "sent" BOOLEAN NOT NULL DEFAULT false,
    "is_auto_reply" BOOLEAN NOT NULL DEFAULT false,
    "is_no_reply" BOOLEAN NOT NULL DEFAULT false,
    "is_mailing_list" BOOLEAN NOT NULL DEFAULT false,
    "is_from_self" BOOLEAN NOT NULL DEFAULT false,
    "has_attachments" BOOLEAN NOT NULL DEFAULT false,
    "size" INTEGER NOT NULL DEFAULT 0,
    "body_text" TEXT,
    "body_html" TEXT,
    "body_complete" BOOLEAN NOT NULL DEFAULT false,
    "classification" JSONB NOT NULL DEFAULT '{}',
    "ingested_via" TEXT NOT NULL,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mail_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_attachments" (
    "id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "disposition" TEXT NOT NULL,
    "content_id" TEXT,
    "part_ref" TEXT,
    "blob_key" TEXT,

    CONSTRAINT "mail_attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "uploaded_attachments" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "filename" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "blob_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "uploaded_attachments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stored_blobs" (
    "key" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stored_blobs_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "mail_operations" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "thread_id" UUID,
    "action" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "client_token" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "mail_operations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runner_instances" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "runner_instances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "link" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "read_at" TIMESTAMPTZ(3),
    "archived_at" TIMESTAMPTZ(3),

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_flows_state_hash_key" ON "oauth_flows"("state_hash");

-- CreateIndex
CREATE INDEX "oauth_flows_expires_at_idx" ON "oauth_flows"("expires_at");

-- CreateIndex
CREATE INDEX "credentials_member_id_created_at_idx" ON "credentials"("member_id", "created_at");

-- CreateIndex
CREATE INDEX "credentials_scope_created_at_idx" ON "credentials"("scope", "created_at");

-- CreateIndex
CREATE INDEX "mailboxes_status_lease_until_idx" ON "mailboxes"("status", "lease_until");

-- CreateIndex
CREATE UNIQUE INDEX "mailboxes_member_id_provider_address_key" ON "mailboxes"("member_id", "provider", "address");

-- CreateIndex
CREATE UNIQUE INDEX "mail_folders_mailbox_id_key_key" ON "mail_folders"("mailbox_id", "key");

-- CreateIndex
CREATE INDEX "mail_threads_mailbox_id_last_message_at_id_idx" ON "mail_threads"("mailbox_id", "last_message_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "mail_threads_mailbox_id_subject_key_idx" ON "mail_threads"("mailbox_id", "subject_key");

-- CreateIndex
CREATE INDEX "mail_messages_mailbox_id_received_at_id_idx" ON "mail_messages"("mailbox_id", "received_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "mail_messages_mailbox_id_folder_key_received_at_idx" ON "mail_messages"("mailbox_id", "folder_key", "received_at" DESC);

-- CreateIndex
CREATE INDEX "mail_messages_thread_id_received_at_idx" ON "mail_messages"("thread_id", "received_at");

-- CreateIndex
CREATE INDEX "mail_messages_mailbox_id_message_id_header_idx" ON "mail_messages"("mailbox_id", "message_id_header");

-- CreateIndex
CREATE UNIQUE INDEX "mail_messages_mailbox_id_provider_key_key" ON "mail_messages"("mailbox_id", "provider_key");

-- CreateIndex
CREATE UNIQUE INDEX "mail_attachments_message_id_position_key" ON "mail_attachments"("message_id", "position");

-- CreateIndex
CREATE INDEX "uploaded_attachments_member_id_created_at_idx" ON "uploaded_attachments"("member_id", "created_at");

-- CreateIndex
CREATE INDEX "uploaded_attachments_expires_at_idx" ON "uploaded_attachments"("expires_at");

-- CreateIndex
CREATE INDEX "mail_operations_mailbox_id_status_created_at_idx" ON "mail_operations"("mailbox_id", "status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "mail_operations_member_id_client_token_message_id_key" ON "mail_operations"("member_id", "client_token", "message_id");

-- CreateIndex
CREATE INDEX "notifications_member_id_created_at_id_idx" ON "notifications"("member_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "oauth_flows" ADD CONSTRAINT "oauth_flows_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "credentials"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_folders" ADD CONSTRAINT "mail_folders_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_threads" ADD CONSTRAINT "mail_threads_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "mail_threads"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_attachments" ADD CONSTRAINT "mail_attachments_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "mail_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "uploaded_attachments" ADD CONSTRAINT "uploaded_attachments_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text search of the messages and threads lists (`q`): subject, snippet and sender, with '@'
-- and '.' split so a part of an address matches. Prisma does not see this column.
ALTER TABLE "mail_messages" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (
  strip(to_tsvector('simple', translate(
    coalesce("subject", '') || ' ' || coalesce("snippet", '') || ' ' || coalesce("from_name", '') || ' ' || coalesce("from_email", ''),
    '@.', '  ')))
) STORED;
CREATE INDEX "mail_messages_search_idx" ON "mail_messages" USING GIN ("search");
CREATE INDEX "mail_threads_folder_keys_idx" ON "mail_threads" USING GIN ("folder_keys");
-- Only pending operations are scanned by the runner.
CREATE INDEX "mail_operations_pending_idx" ON "mail_operations" ("mailbox_id", "created_at") WHERE "status" = 'pending';
