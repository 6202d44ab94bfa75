-- pg_trgm: the address book's search (`q`) uses trigram GIN indexes (a trusted extension since PostgreSQL 13).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateTable
CREATE TABLE "contact_entries" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_shared_cards" (
    "id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "display_name" TEXT,
    "language" TEXT,
    "status" TEXT,
    "org_notes" TEXT,
    "updated_by" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_shared_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_member_cards" (
    "id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "formality" TEXT,
    "tone" TEXT,
    "language" TEXT,
    "signature_id" UUID,
    "personal_notes" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_member_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_mailbox_cards" (
    "id" UUID NOT NULL,
    "entry_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,
    "formality" TEXT,
    "tone" TEXT,
    "language" TEXT,
    "signature_id" UUID,
    "personal_notes" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_mailbox_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_org_defaults" (
    "id" TEXT NOT NULL DEFAULT 'organisation',
    "formality" TEXT,
    "tone" TEXT,
    "language" TEXT,
    "notes" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_org_defaults_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_member_defaults" (
    "member_id" UUID NOT NULL,
    "formality" TEXT,
    "tone" TEXT,
    "language" TEXT,
    "signature_id" UUID,
    "notes" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_member_defaults_pkey" PRIMARY KEY ("member_id")
);

-- CreateTable
CREATE TABLE "contact_mailbox_defaults" (
    "mailbox_id" UUID NOT NULL,
    "formality" TEXT,
    "tone" TEXT,
    "language" TEXT,
    "signature_id" UUID,
    "notes" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_mailbox_defaults_pkey" PRIMARY KEY ("mailbox_id")
);

-- CreateTable
CREATE TABLE "contact_signatures" (
    "id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_signatures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "contact_entries_value_trgm_idx" ON "contact_entries" USING GIN ("value" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "contact_entries_kind_value_key" ON "contact_entries"("kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "contact_shared_cards_entry_id_key" ON "contact_shared_cards"("entry_id");

-- CreateIndex
CREATE INDEX "contact_shared_cards_updated_at_entry_id_idx" ON "contact_shared_cards"("updated_at" DESC, "entry_id");

-- CreateIndex
CREATE INDEX "contact_shared_cards_display_name_trgm_idx" ON "contact_shared_cards" USING GIN ("display_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "contact_shared_cards_org_notes_trgm_idx" ON "contact_shared_cards" USING GIN ("org_notes" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "contact_member_cards_member_id_updated_at_idx" ON "contact_member_cards"("member_id", "updated_at" DESC);

-- CreateIndex
CREATE INDEX "contact_member_cards_signature_id_idx" ON "contact_member_cards"("signature_id");

-- CreateIndex
CREATE INDEX "contact_member_cards_notes_trgm_idx" ON "contact_member_cards" USING GIN ("personal_notes" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "contact_member_cards_entry_id_member_id_key" ON "contact_member_cards"("entry_id", "member_id");

-- CreateIndex
CREATE INDEX "contact_mailbox_cards_member_id_updated_at_idx" ON "contact_mailbox_cards"("member_id", "updated_at" DESC);

-- CreateIndex
CREATE INDEX "contact_mailbox_cards_mailbox_id_updated_at_idx" ON "contact_mailbox_cards"("mailbox_id", "updated_at" DESC);

-- CreateIndex
CREATE INDEX "contact_mailbox_cards_signature_id_idx" ON "contact_mailbox_cards"("signature_id");

-- CreateIndex
CREATE INDEX "contact_mailbox_cards_notes_trgm_idx" ON "contact_mailbox_cards" USING GIN ("personal_notes" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "contact_mailbox_cards_entry_id_mailbox_id_key" ON "contact_mailbox_cards"("entry_id", "mailbox_id");

-- CreateIndex
CREATE INDEX "contact_member_defaults_signature_id_idx" ON "contact_member_defaults"("signature_id");

-- CreateIndex
CREATE INDEX "contact_mailbox_defaults_signature_id_idx" ON "contact_mailbox_defaults"("signature_id");

-- CreateIndex
CREATE INDEX "contact_signatures_member_id_created_at_idx" ON "contact_signatures"("member_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "contact_shared_cards" ADD CONSTRAINT "contact_shared_cards_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "contact_entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_member_cards" ADD CONSTRAINT "contact_member_cards_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "contact_entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_member_cards" ADD CONSTRAINT "contact_member_cards_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_member_cards" ADD CONSTRAINT "contact_member_cards_signature_id_fkey" FOREIGN KEY ("signature_id") REFERENCES "contact_signatures"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_mailbox_cards" ADD CONSTRAINT "contact_mailbox_cards_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "contact_entries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_mailbox_cards" ADD CONSTRAINT "contact_mailbox_cards_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_mailbox_cards" ADD CONSTRAINT "contact_mailbox_cards_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_mailbox_cards" ADD CONSTRAINT "contact_mailbox_cards_signature_id_fkey" FOREIGN KEY ("signature_id") REFERENCES "contact_signatures"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_member_defaults" ADD CONSTRAINT "contact_member_defaults_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_member_defaults" ADD CONSTRAINT "contact_member_defaults_signature_id_fkey" FOREIGN KEY ("signature_id") REFERENCES "contact_signatures"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_mailbox_defaults" ADD CONSTRAINT "contact_mailbox_defaults_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_mailbox_defaults" ADD CONSTRAINT "contact_mailbox_defaults_signature_id_fkey" FOREIGN KEY ("signature_id") REFERENCES "contact_signatures"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_signatures" ADD CONSTRAINT "contact_signatures_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;
