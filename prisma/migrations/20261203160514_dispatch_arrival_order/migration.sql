-- DropIndex
DROP INDEX "mail_dispatch_queue_mailbox_id_enqueued_at_idx";

-- AlterTable
ALTER TABLE "mail_dispatch_queue" ADD COLUMN     "position" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "mail_dispatch_queue_mailbox_id_enqueued_at_position_idx" ON "mail_dispatch_queue"("mailbox_id", "enqueued_at", "position");
