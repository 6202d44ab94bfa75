-- CreateTable: UNLOGGED, like rate_limit_buckets: a budget is counted on every provider call and
-- never waits on a durable write; a crash only resets it to full buckets.
CREATE UNLOGGED TABLE "provider_call_budgets" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "refilled_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "provider_call_budgets_pkey" PRIMARY KEY ("key")
);
