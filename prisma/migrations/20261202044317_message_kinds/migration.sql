-- AlterTable
ALTER TABLE "mail_messages" ADD COLUMN     "is_bulk" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "is_calendar" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "is_delivery_report" BOOLEAN NOT NULL DEFAULT false;

-- Stored messages, from what the mirror kept (raw headers are not stored, so this cannot recompute
-- the signals exactly; see ARCHITECTURE.md, "Message signals"). Before this migration
-- `is_auto_reply` also meant `Precedence: bulk/junk` and every `multipart/report`.
-- 1. Delivery reports: automatic mail from MAILER-DAEMON, or carrying a report's machine part.
UPDATE "mail_messages" m
   SET "is_delivery_report" = true, "is_auto_reply" = false
 WHERE m."is_auto_reply"
   AND (split_part(lower(btrim(coalesce(m."from_email", ''))), '@', 1) = 'mailer-daemon'
        OR EXISTS (SELECT 1 FROM "mail_attachments" a
                    WHERE a."message_id" = m."id"
                      AND lower(a."mime") IN ('message/delivery-status', 'message/disposition-notification', 'text/rfc822-headers',
                                              'message/global-delivery-status', 'message/global-disposition-notification', 'message/global-headers')));
-- 2. List mail that was "automatic" (almost always `Precedence: bulk` on a newsletter): bulk list mail.
UPDATE "mail_messages" SET "is_bulk" = true, "is_auto_reply" = false WHERE "is_auto_reply" AND "is_mailing_list";
-- 3. Calendar mail: an iCalendar part.
UPDATE "mail_messages" m
   SET "is_calendar" = true
 WHERE EXISTS (SELECT 1 FROM "mail_attachments" a WHERE a."message_id" = m."id" AND lower(a."mime") = 'text/calendar');
