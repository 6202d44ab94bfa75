-- CreateIndex
CREATE INDEX "mail_messages_mailbox_id_in_reply_to_idx" ON "mail_messages"("mailbox_id", "in_reply_to");

-- CreateIndex
CREATE INDEX "mail_messages_references_idx" ON "mail_messages" USING GIN ("references");
