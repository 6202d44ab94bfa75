-- CreateTable
CREATE TABLE "execution_reply_waits" (
    "execution_id" UUID NOT NULL,
    "node_id" TEXT NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "thread_id" UUID,
    "anchor_message_id" UUID NOT NULL,
    "anchor_header" TEXT,
    "after_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "execution_reply_waits_pkey" PRIMARY KEY ("execution_id","node_id")
);

-- CreateIndex
CREATE INDEX "execution_reply_waits_mailbox_id_thread_id_idx" ON "execution_reply_waits"("mailbox_id", "thread_id");

-- CreateIndex
CREATE INDEX "execution_reply_waits_mailbox_id_anchor_header_idx" ON "execution_reply_waits"("mailbox_id", "anchor_header");

-- AddForeignKey
ALTER TABLE "execution_reply_waits" ADD CONSTRAINT "execution_reply_waits_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "execution_reply_waits" ADD CONSTRAINT "execution_reply_waits_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
