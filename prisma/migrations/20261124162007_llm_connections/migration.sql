-- CreateTable
CREATE TABLE "llm_connections" (
    "id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "api_key_enc" TEXT,
    "api_key_hint" TEXT,
    "base_url" TEXT,
    "enabled_models" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "without_api_key" BOOLEAN NOT NULL DEFAULT false,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "llm_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "llm_routing" (
    "purpose" TEXT NOT NULL,
    "connection_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "llm_routing_pkey" PRIMARY KEY ("purpose")
);

-- CreateTable
CREATE TABLE "llm_prices" (
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "input_usd_per_million" DOUBLE PRECISION NOT NULL,
    "output_usd_per_million" DOUBLE PRECISION NOT NULL,
    "reasoning_usd_per_million" DOUBLE PRECISION,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "llm_prices_pkey" PRIMARY KEY ("provider","model")
);

-- CreateTable
CREATE TABLE "llm_usage" (
    "id" UUID NOT NULL,
    "connection_id" UUID,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "member_id" UUID,
    "workflow_id" UUID,
    "execution_id" UUID,
    "step_id" TEXT,
    "conversation_id" UUID,
    "input_tokens" INTEGER NOT NULL DEFAULT 0,
    "output_tokens" INTEGER NOT NULL DEFAULT 0,
    "reasoning_tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "llm_usage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "llm_budgets" (
    "id" TEXT NOT NULL DEFAULT 'instance',
    "instance_monthly_usd" DOUBLE PRECISION,
    "member_monthly_usd" DOUBLE PRECISION,
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "llm_budgets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "llm_connections_created_at_id_idx" ON "llm_connections"("created_at", "id");

-- CreateIndex
CREATE INDEX "llm_routing_connection_id_idx" ON "llm_routing"("connection_id");

-- CreateIndex
CREATE INDEX "llm_usage_created_at_idx" ON "llm_usage"("created_at");

-- CreateIndex
CREATE INDEX "llm_usage_member_id_created_at_idx" ON "llm_usage"("member_id", "created_at");

-- AddForeignKey
ALTER TABLE "llm_routing" ADD CONSTRAINT "llm_routing_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "llm_connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma's schema cannot express them): labels are unique without regard to case,
-- and at most one connection is the instance default.
CREATE UNIQUE INDEX "llm_connections_label_key" ON "llm_connections" (lower("label"));
CREATE UNIQUE INDEX "llm_connections_default_key" ON "llm_connections" ("is_default") WHERE "is_default";
