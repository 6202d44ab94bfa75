-- Hourly rollups of the message journal and of AI usage for the dashboard's mail and AI figures
-- (server/domains/dashboard/mail-sql.ts, ai-sql.ts): an org-wide 30-day window over a busy month read every raw row
-- (500,000 journal entries, 200,000 usage rows: a sequential scan each, bench/README.md). Keyed by whole UTC hours
-- (`date_trunc('hour', created_at, 'UTC')`, never the session's zone) plus the columns the statements group or
-- filter by. Kept by the triggers below in the writer's own transaction (a rolled-back write leaves no trace, any
-- code path that writes the row is seen), reconciled by the runner (server/domains/dashboard/rollups/
-- mail-ai-reconcile.ts). The hand-written parts (NULLS NOT DISTINCT, functions, triggers, backfill) follow the
-- generated ones.

-- CreateTable
CREATE TABLE "dashboard_journal_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "member_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "outcome" TEXT NOT NULL,
    "entries" INTEGER NOT NULL DEFAULT 0,
    "automated" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "dashboard_journal_hours_pkey" PRIMARY KEY ("hour","member_id","mailbox_id","outcome")
);

-- CreateTable
CREATE TABLE "dashboard_llm_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "member_id" UUID,
    "workflow_id" UUID,
    "on_member_key" BOOLEAN NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "reasoning_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" DECIMAL NOT NULL DEFAULT 0,
    "unpriced_calls" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "dashboard_llm_model_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "member_id" UUID,
    "workflow_id" UUID,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "reasoning_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" DECIMAL NOT NULL DEFAULT 0,
    "unpriced_calls" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "dashboard_llm_purpose_hours" (
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "member_id" UUID,
    "workflow_id" UUID,
    "purpose" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "reasoning_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" DECIMAL NOT NULL DEFAULT 0,
    "unpriced_calls" INTEGER NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "dashboard_journal_hours_member_id_hour_idx" ON "dashboard_journal_hours"("member_id", "hour");

-- CreateIndex
CREATE INDEX "dashboard_llm_hours_member_id_hour_idx" ON "dashboard_llm_hours"("member_id", "hour");

-- CreateIndex (hand-edited: NULLS NOT DISTINCT, so calls without a member or a workflow share a row and the trigger's
-- ON CONFLICT finds it; Prisma cannot say it)
CREATE UNIQUE INDEX "dashboard_llm_hours_hour_member_id_workflow_id_on_member_ke_key" ON "dashboard_llm_hours"("hour", "member_id", "workflow_id", "on_member_key") NULLS NOT DISTINCT;

-- CreateIndex
CREATE INDEX "dashboard_llm_model_hours_member_id_hour_idx" ON "dashboard_llm_model_hours"("member_id", "hour");

-- CreateIndex (hand-edited: NULLS NOT DISTINCT, so calls without a member or a workflow share a row and the trigger's
-- ON CONFLICT finds it; Prisma cannot say it)
CREATE UNIQUE INDEX "dashboard_llm_model_hours_hour_member_id_workflow_id_provid_key" ON "dashboard_llm_model_hours"("hour", "member_id", "workflow_id", "provider", "model") NULLS NOT DISTINCT;

-- CreateIndex
CREATE INDEX "dashboard_llm_purpose_hours_member_id_hour_idx" ON "dashboard_llm_purpose_hours"("member_id", "hour");

-- CreateIndex (hand-edited: NULLS NOT DISTINCT, so calls without a member or a workflow share a row and the trigger's
-- ON CONFLICT finds it; Prisma cannot say it)
CREATE UNIQUE INDEX "dashboard_llm_purpose_hours_hour_member_id_workflow_id_purp_key" ON "dashboard_llm_purpose_hours"("hour", "member_id", "workflow_id", "purpose") NULLS NOT DISTINCT;

-- The journal: each entry adds 1 (and 1 automated when it is) to its hour's row; an update moves the old
-- contribution to the new row; a delete takes it back. A row may stay at 0 (the reconcile removes it).
CREATE FUNCTION "dashboard_journal_hours_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "dashboard_journal_hours" AS h ("hour", "member_id", "mailbox_id", "outcome", "entries", "automated")
    VALUES (date_trunc('hour', OLD."created_at", 'UTC'), OLD."member_id", OLD."mailbox_id", OLD."outcome", -1, -OLD."automated"::int)
    ON CONFLICT ("hour", "member_id", "mailbox_id", "outcome")
    DO UPDATE SET "entries" = h."entries" + excluded."entries", "automated" = h."automated" + excluded."automated";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "dashboard_journal_hours" AS h ("hour", "member_id", "mailbox_id", "outcome", "entries", "automated")
    VALUES (date_trunc('hour', NEW."created_at", 'UTC'), NEW."member_id", NEW."mailbox_id", NEW."outcome", 1, NEW."automated"::int)
    ON CONFLICT ("hour", "member_id", "mailbox_id", "outcome")
    DO UPDATE SET "entries" = h."entries" + excluded."entries", "automated" = h."automated" + excluded."automated";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "dashboard_journal_hours_insert_delete" AFTER INSERT OR DELETE ON "mail_journal_entries"
  FOR EACH ROW EXECUTE FUNCTION "dashboard_journal_hours_apply"();
-- Only an update of a counted column, and only when it changes something, touches the rollup.
CREATE TRIGGER "dashboard_journal_hours_update" AFTER UPDATE OF "created_at", "member_id", "mailbox_id", "outcome", "automated" ON "mail_journal_entries"
  FOR EACH ROW
  WHEN ((OLD."created_at", OLD."member_id", OLD."mailbox_id", OLD."outcome", OLD."automated") IS DISTINCT FROM (NEW."created_at", NEW."member_id", NEW."mailbox_id", NEW."outcome", NEW."automated"))
  EXECUTE FUNCTION "dashboard_journal_hours_apply"();

-- AI usage: the same for each of the three projections (by who paid, by model, by purpose), with the call's tokens
-- and cost (a null cost adds 0 and one unpriced call).
CREATE FUNCTION "dashboard_llm_hours_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "dashboard_llm_hours" AS h ("hour", "member_id", "workflow_id", "on_member_key", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
    VALUES (date_trunc('hour', OLD."created_at", 'UTC'), OLD."member_id", OLD."workflow_id", OLD."credential_id" IS NOT NULL,
        -1, -OLD."input_tokens", -OLD."output_tokens", -OLD."reasoning_tokens", -coalesce(OLD."cost_usd"::numeric, 0), -(OLD."cost_usd" IS NULL)::int)
    ON CONFLICT ("hour", "member_id", "workflow_id", "on_member_key") DO UPDATE SET
        "calls" = h."calls" + excluded."calls", "input_tokens" = h."input_tokens" + excluded."input_tokens", "output_tokens" = h."output_tokens" + excluded."output_tokens", "reasoning_tokens" = h."reasoning_tokens" + excluded."reasoning_tokens", "cost_usd" = h."cost_usd" + excluded."cost_usd", "unpriced_calls" = h."unpriced_calls" + excluded."unpriced_calls";
    INSERT INTO "dashboard_llm_model_hours" AS h ("hour", "member_id", "workflow_id", "provider", "model", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
    VALUES (date_trunc('hour', OLD."created_at", 'UTC'), OLD."member_id", OLD."workflow_id", OLD."provider", OLD."model",
        -1, -OLD."input_tokens", -OLD."output_tokens", -OLD."reasoning_tokens", -coalesce(OLD."cost_usd"::numeric, 0), -(OLD."cost_usd" IS NULL)::int)
    ON CONFLICT ("hour", "member_id", "workflow_id", "provider", "model") DO UPDATE SET
        "calls" = h."calls" + excluded."calls", "input_tokens" = h."input_tokens" + excluded."input_tokens", "output_tokens" = h."output_tokens" + excluded."output_tokens", "reasoning_tokens" = h."reasoning_tokens" + excluded."reasoning_tokens", "cost_usd" = h."cost_usd" + excluded."cost_usd", "unpriced_calls" = h."unpriced_calls" + excluded."unpriced_calls";
    INSERT INTO "dashboard_llm_purpose_hours" AS h ("hour", "member_id", "workflow_id", "purpose", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
    VALUES (date_trunc('hour', OLD."created_at", 'UTC'), OLD."member_id", OLD."workflow_id", OLD."purpose",
        -1, -OLD."input_tokens", -OLD."output_tokens", -OLD."reasoning_tokens", -coalesce(OLD."cost_usd"::numeric, 0), -(OLD."cost_usd" IS NULL)::int)
    ON CONFLICT ("hour", "member_id", "workflow_id", "purpose") DO UPDATE SET
        "calls" = h."calls" + excluded."calls", "input_tokens" = h."input_tokens" + excluded."input_tokens", "output_tokens" = h."output_tokens" + excluded."output_tokens", "reasoning_tokens" = h."reasoning_tokens" + excluded."reasoning_tokens", "cost_usd" = h."cost_usd" + excluded."cost_usd", "unpriced_calls" = h."unpriced_calls" + excluded."unpriced_calls";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "dashboard_llm_hours" AS h ("hour", "member_id", "workflow_id", "on_member_key", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
    VALUES (date_trunc('hour', NEW."created_at", 'UTC'), NEW."member_id", NEW."workflow_id", NEW."credential_id" IS NOT NULL,
        1, NEW."input_tokens", NEW."output_tokens", NEW."reasoning_tokens", coalesce(NEW."cost_usd"::numeric, 0), (NEW."cost_usd" IS NULL)::int)
    ON CONFLICT ("hour", "member_id", "workflow_id", "on_member_key") DO UPDATE SET
        "calls" = h."calls" + excluded."calls", "input_tokens" = h."input_tokens" + excluded."input_tokens", "output_tokens" = h."output_tokens" + excluded."output_tokens", "reasoning_tokens" = h."reasoning_tokens" + excluded."reasoning_tokens", "cost_usd" = h."cost_usd" + excluded."cost_usd", "unpriced_calls" = h."unpriced_calls" + excluded."unpriced_calls";
    INSERT INTO "dashboard_llm_model_hours" AS h ("hour", "member_id", "workflow_id", "provider", "model", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
    VALUES (date_trunc('hour', NEW."created_at", 'UTC'), NEW."member_id", NEW."workflow_id", NEW."provider", NEW."model",
        1, NEW."input_tokens", NEW."output_tokens", NEW."reasoning_tokens", coalesce(NEW."cost_usd"::numeric, 0), (NEW."cost_usd" IS NULL)::int)
    ON CONFLICT ("hour", "member_id", "workflow_id", "provider", "model") DO UPDATE SET
        "calls" = h."calls" + excluded."calls", "input_tokens" = h."input_tokens" + excluded."input_tokens", "output_tokens" = h."output_tokens" + excluded."output_tokens", "reasoning_tokens" = h."reasoning_tokens" + excluded."reasoning_tokens", "cost_usd" = h."cost_usd" + excluded."cost_usd", "unpriced_calls" = h."unpriced_calls" + excluded."unpriced_calls";
    INSERT INTO "dashboard_llm_purpose_hours" AS h ("hour", "member_id", "workflow_id", "purpose", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
    VALUES (date_trunc('hour', NEW."created_at", 'UTC'), NEW."member_id", NEW."workflow_id", NEW."purpose",
        1, NEW."input_tokens", NEW."output_tokens", NEW."reasoning_tokens", coalesce(NEW."cost_usd"::numeric, 0), (NEW."cost_usd" IS NULL)::int)
    ON CONFLICT ("hour", "member_id", "workflow_id", "purpose") DO UPDATE SET
        "calls" = h."calls" + excluded."calls", "input_tokens" = h."input_tokens" + excluded."input_tokens", "output_tokens" = h."output_tokens" + excluded."output_tokens", "reasoning_tokens" = h."reasoning_tokens" + excluded."reasoning_tokens", "cost_usd" = h."cost_usd" + excluded."cost_usd", "unpriced_calls" = h."unpriced_calls" + excluded."unpriced_calls";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "dashboard_llm_hours_insert_delete" AFTER INSERT OR DELETE ON "llm_usage"
  FOR EACH ROW EXECUTE FUNCTION "dashboard_llm_hours_apply"();
CREATE TRIGGER "dashboard_llm_hours_update" AFTER UPDATE OF "created_at", "member_id", "workflow_id", "provider", "model", "purpose", "credential_id",
    "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd" ON "llm_usage"
  FOR EACH ROW
  WHEN ((OLD."created_at", OLD."member_id", OLD."workflow_id", OLD."provider", OLD."model", OLD."purpose", OLD."credential_id" IS NULL,
         OLD."input_tokens", OLD."output_tokens", OLD."reasoning_tokens", OLD."cost_usd")
        IS DISTINCT FROM (NEW."created_at", NEW."member_id", NEW."workflow_id", NEW."provider", NEW."model", NEW."purpose", NEW."credential_id" IS NULL,
         NEW."input_tokens", NEW."output_tokens", NEW."reasoning_tokens", NEW."cost_usd"))
  EXECUTE FUNCTION "dashboard_llm_hours_apply"();

-- TRUNCATE fires no row trigger: emptying a fact table empties its rollups.
CREATE FUNCTION "dashboard_mail_ai_hours_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'mail_journal_entries' THEN
    TRUNCATE "dashboard_journal_hours";
  ELSE
    TRUNCATE "dashboard_llm_hours", "dashboard_llm_model_hours", "dashboard_llm_purpose_hours";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "dashboard_journal_hours_truncate" AFTER TRUNCATE ON "mail_journal_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_mail_ai_hours_truncate"();
CREATE TRIGGER "dashboard_llm_hours_truncate" AFTER TRUNCATE ON "llm_usage"
  FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_mail_ai_hours_truncate"();

-- Backfill: the rows written before the triggers.
INSERT INTO "dashboard_journal_hours" ("hour", "member_id", "mailbox_id", "outcome", "entries", "automated")
SELECT date_trunc('hour', "created_at", 'UTC'), "member_id", "mailbox_id", "outcome", count(*)::int, count(*) FILTER (WHERE "automated")::int
  FROM "mail_journal_entries"
 GROUP BY 1, 2, 3, 4;

INSERT INTO "dashboard_llm_hours" ("hour", "member_id", "workflow_id", "on_member_key", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
SELECT date_trunc('hour', "created_at", 'UTC'), "member_id", "workflow_id", "credential_id" IS NOT NULL,
       count(*)::int, coalesce(sum("input_tokens"), 0), coalesce(sum("output_tokens"), 0), coalesce(sum("reasoning_tokens"), 0),
       coalesce(sum("cost_usd"::numeric), 0), count(*) FILTER (WHERE "cost_usd" IS NULL)::int
  FROM "llm_usage"
 GROUP BY 1, 2, 3, 4;

INSERT INTO "dashboard_llm_model_hours" ("hour", "member_id", "workflow_id", "provider", "model", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
SELECT date_trunc('hour', "created_at", 'UTC'), "member_id", "workflow_id", "provider", "model",
       count(*)::int, coalesce(sum("input_tokens"), 0), coalesce(sum("output_tokens"), 0), coalesce(sum("reasoning_tokens"), 0),
       coalesce(sum("cost_usd"::numeric), 0), count(*) FILTER (WHERE "cost_usd" IS NULL)::int
  FROM "llm_usage"
 GROUP BY 1, 2, 3, 4, 5;

INSERT INTO "dashboard_llm_purpose_hours" ("hour", "member_id", "workflow_id", "purpose", "calls", "input_tokens", "output_tokens", "reasoning_tokens", "cost_usd", "unpriced_calls")
SELECT date_trunc('hour', "created_at", 'UTC'), "member_id", "workflow_id", "purpose",
       count(*)::int, coalesce(sum("input_tokens"), 0), coalesce(sum("output_tokens"), 0), coalesce(sum("reasoning_tokens"), 0),
       coalesce(sum("cost_usd"::numeric), 0), count(*) FILTER (WHERE "cost_usd" IS NULL)::int
  FROM "llm_usage"
 GROUP BY 1, 2, 3, 4;
