-- AlterTable
ALTER TABLE "eval_runs" ADD COLUMN     "call_models" BOOLEAN NOT NULL DEFAULT false;
