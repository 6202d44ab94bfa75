-- CreateTable: UNLOGGED, like provider_call_budgets: a slot is taken and given back around every
-- Microsoft Graph call and never waits on a durable write; a crash of the database frees them all.
CREATE UNLOGGED TABLE "provider_call_slots" (
    "key" TEXT NOT NULL,
    "slot" SMALLINT NOT NULL,
    "holder" TEXT,
    "held_until" TIMESTAMPTZ(6),

    CONSTRAINT "provider_call_slots_pkey" PRIMARY KEY ("key","slot")
);
