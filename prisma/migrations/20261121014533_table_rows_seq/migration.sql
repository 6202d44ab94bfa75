-- AlterTable
ALTER TABLE "table_rows" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "table_rows_table_id_seq_idx" ON "table_rows"("table_id", "seq");
