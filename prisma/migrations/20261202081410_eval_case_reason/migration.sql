-- AlterTable
ALTER TABLE "eval_cases" ADD COLUMN     "reason" JSONB;
