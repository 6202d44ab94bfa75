-- AlterTable
ALTER TABLE "execution_steps" ADD COLUMN     "decision" JSONB;
