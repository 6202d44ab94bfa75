-- The References GIN index writes its entries straight into the index instead of a pending list.
-- A sync's batch looks up each of its ids in this index (server/mail/threads/attach.ts), and every
-- look-up reads the whole pending list, which a sync fills as fast as it writes: 150 look-ups per
-- batch read up to 4 MB each (3.4 s of look-ups for a 10,000-message sync against 0.07 s without
-- the list, the inserts costing the same, measured). Prisma's schema cannot say this; the index is
-- the one of `@@index([references], type: Gin)`.
ALTER INDEX "mail_messages_references_idx" SET (fastupdate = off);
