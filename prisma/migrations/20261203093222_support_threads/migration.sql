-- CreateTable
CREATE TABLE "support_threads" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "assignee_name" TEXT,
    "author_member_id" UUID,
    "author_name" TEXT NOT NULL,
    "status_seq" BIGINT,
    "assignee_seq" BIGINT,
    "message_count" INTEGER NOT NULL DEFAULT 0,
    "last_team_seq" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_message_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "support_threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "support_messages" (
    "id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "direction" TEXT NOT NULL,
    "opens_thread" BOOLEAN NOT NULL DEFAULT false,
    "author_name" TEXT NOT NULL,
    "author_member_id" UUID,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "operator_message_id" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,

    CONSTRAINT "support_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "support_reads" (
    "thread_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "last_read_seq" BIGINT NOT NULL,
    "last_read_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "support_reads_pkey" PRIMARY KEY ("thread_id","member_id")
);

-- CreateTable
CREATE TABLE "support_link" (
    "id" TEXT NOT NULL DEFAULT 'instance',
    "cursor" TEXT,
    "synced_at" TIMESTAMPTZ(3),
    "branding" JSONB,
    "branding_fetched_at" TIMESTAMPTZ(3),

    CONSTRAINT "support_link_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "support_threads_updated_at_id_idx" ON "support_threads"("updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "support_threads_author_member_id_updated_at_id_idx" ON "support_threads"("author_member_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "support_messages_operator_message_id_key" ON "support_messages"("operator_message_id");

-- CreateIndex
CREATE INDEX "support_messages_thread_id_seq_idx" ON "support_messages"("thread_id", "seq");

-- CreateIndex
CREATE INDEX "support_messages_delivered_at_seq_idx" ON "support_messages"("delivered_at", "seq");

-- CreateIndex
CREATE INDEX "support_messages_author_member_id_idx" ON "support_messages"("author_member_id");

-- CreateIndex
CREATE INDEX "support_reads_member_id_idx" ON "support_reads"("member_id");

-- AddForeignKey
ALTER TABLE "support_threads" ADD CONSTRAINT "support_threads_author_member_id_fkey" FOREIGN KEY ("author_member_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "support_threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_author_member_id_fkey" FOREIGN KEY ("author_member_id") REFERENCES "members"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_reads" ADD CONSTRAINT "support_reads_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "support_threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "support_reads" ADD CONSTRAINT "support_reads_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
