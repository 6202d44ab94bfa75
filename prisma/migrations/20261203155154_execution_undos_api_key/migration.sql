-- AlterTable
ALTER TABLE "execution_undos" ADD COLUMN     "api_key_id" UUID;
