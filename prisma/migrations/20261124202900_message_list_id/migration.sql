-- AlterTable
ALTER TABLE "mail_messages" ADD COLUMN     "list_id" TEXT;
