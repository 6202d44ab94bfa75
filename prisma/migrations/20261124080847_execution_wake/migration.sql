-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "wake_seq" INTEGER NOT NULL DEFAULT 0;
