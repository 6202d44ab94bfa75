-- AlterTable
ALTER TABLE "mail_messages" ADD COLUMN     "body_pending" BOOLEAN NOT NULL DEFAULT false;

-- The body pass's queue (server/mail/mirror/bodies.ts), newest first: only the rows it still has to fill, so an
-- instance where every body is in costs nothing to ask.
CREATE INDEX "mail_messages_body_pending_idx" ON "mail_messages" ("mailbox_id", "received_at" DESC) WHERE "body_pending";
