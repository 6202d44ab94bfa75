-- AlterTable
ALTER TABLE "credentials" ADD COLUMN     "allowed_hosts" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "sent_as" TEXT;
