-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "lease_takeovers" INTEGER NOT NULL DEFAULT 0;
