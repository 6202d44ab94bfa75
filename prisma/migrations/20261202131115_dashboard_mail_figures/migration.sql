-- AlterTable
ALTER TABLE "mail_journal_entries" ADD COLUMN     "automated" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "mail_journal_entries_created_at_idx" ON "mail_journal_entries"("created_at");

-- CreateIndex
CREATE INDEX "outbound_messages_created_at_idx" ON "outbound_messages"("created_at");

-- CreateIndex
CREATE INDEX "outbound_messages_sent_at_idx" ON "outbound_messages"("sent_at");

-- CreateIndex
CREATE INDEX "outbound_messages_member_id_sent_at_idx" ON "outbound_messages"("member_id", "sent_at");

-- Backfill: entries written before the column, from their message's ingest signals (a message
-- already gone from the mirror stays false).
UPDATE "mail_journal_entries" j
   SET "automated" = true
  FROM "mail_messages" m
 WHERE m."id" = j."message_id"
   AND (m."is_delivery_report" OR m."is_auto_reply" OR m."is_no_reply" OR m."is_mailing_list" OR m."is_bulk");
