-- CreateTable
CREATE TABLE "mailbox_analyses" (
    "id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "window_days" INTEGER NOT NULL,
    "min_group_volume" INTEGER NOT NULL,
    "body" JSONB,
    "llm_outcome" JSONB,
    "transcript" JSONB,
    "progress" JSONB NOT NULL DEFAULT '{}',
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mailbox_analyses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "mailbox_analyses_mailbox_id_created_at_idx" ON "mailbox_analyses"("mailbox_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "mailbox_analyses" ADD CONSTRAINT "mailbox_analyses_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
