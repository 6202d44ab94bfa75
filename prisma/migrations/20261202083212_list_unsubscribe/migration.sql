-- AlterTable
ALTER TABLE "mail_messages" ADD COLUMN     "list_unsubscribe" JSONB;
