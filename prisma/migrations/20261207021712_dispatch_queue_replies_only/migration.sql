-- AlterTable
ALTER TABLE "mail_dispatch_queue" ADD COLUMN     "replies_only" BOOLEAN NOT NULL DEFAULT false;
