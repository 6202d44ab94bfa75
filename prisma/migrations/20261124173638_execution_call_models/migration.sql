-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "call_models" BOOLEAN NOT NULL DEFAULT false;
