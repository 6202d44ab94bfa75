-- CreateTable
CREATE TABLE "templates" (
    "id" UUID NOT NULL,
    "slug" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "category" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "graph" JSONB NOT NULL,
    "node_types" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "requires_providers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_by" UUID,
    "install_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "templates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "templates_slug_key" ON "templates"("slug");

-- CreateIndex
CREATE INDEX "templates_enabled_name_idx" ON "templates"("enabled", "name");
