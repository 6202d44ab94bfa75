-- The mail figures of one workflow (server/domains/dashboard/mail-sql.ts, journalOfWorkflowSql) look up each run's
-- journal entry by message: with every column the statement reads in the index, the lookups are index-only instead
-- of one heap fetch each (bench/dashboard.ts, a busy month: 30,000 lookups, ~190 ms of heap reads). Hand-written:
-- Prisma's schema cannot say INCLUDE.
CREATE INDEX "mail_journal_entries_message_covering_idx" ON "mail_journal_entries" ("message_id")
  INCLUDE ("created_at", "member_id", "mailbox_id", "outcome", "automated");
