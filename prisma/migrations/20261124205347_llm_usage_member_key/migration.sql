-- AlterTable
ALTER TABLE "llm_usage" ADD COLUMN     "credential_id" UUID;
