-- AlterTable
ALTER TABLE "members" ADD COLUMN     "must_change_password" BOOLEAN NOT NULL DEFAULT false;
