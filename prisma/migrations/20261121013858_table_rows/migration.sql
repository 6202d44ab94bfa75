-- CreateTable
CREATE TABLE "table_rows" (
    "id" UUID NOT NULL,
    "table_id" UUID NOT NULL,
    "cells" JSONB NOT NULL DEFAULT '{}',
    "key_value" TEXT,
    "unique_key" TEXT,
    "search_text" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by_member" UUID,
    "created_by_execution" TEXT,
    "updated_by_member" UUID,
    "updated_by_execution" TEXT,

    CONSTRAINT "table_rows_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "table_rows_table_id_created_at_id_idx" ON "table_rows"("table_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "table_rows_table_id_key_value_idx" ON "table_rows"("table_id", "key_value");

-- CreateIndex
CREATE UNIQUE INDEX "table_rows_table_id_unique_key_key" ON "table_rows"("table_id", "unique_key");

-- AddForeignKey
ALTER TABLE "table_rows" ADD CONSTRAINT "table_rows_table_id_fkey" FOREIGN KEY ("table_id") REFERENCES "data_tables"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text filter `q` over the cells of a row (hand-written: the Prisma schema language has no
-- generated columns). The simple configuration: no stemming or stop words, since cells are names,
-- codes and addresses as much as prose. Prisma never reads this column: the rows query uses it in raw SQL.
-- No semicolon in comments: the driver adapter splits the script on every semicolon.
ALTER TABLE "table_rows" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple', "search_text")) STORED;
CREATE INDEX "table_rows_search_idx" ON "table_rows" USING GIN ("search");
