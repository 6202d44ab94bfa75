-- AlterTable
ALTER TABLE "mailboxes" ADD COLUMN     "stalled_reason" TEXT,
ADD COLUMN     "stalled_since" TIMESTAMPTZ(3),
ADD COLUMN     "watch_alive_at" TIMESTAMPTZ(3),
ADD COLUMN     "watch_mode" TEXT;
