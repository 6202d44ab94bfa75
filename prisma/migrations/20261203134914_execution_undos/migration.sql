-- CreateTable
CREATE TABLE "execution_undos" (
    "execution_id" UUID NOT NULL,
    "member_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "items" JSONB NOT NULL DEFAULT '[]',
    "sent" JSONB NOT NULL DEFAULT '[]',
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "execution_undos_pkey" PRIMARY KEY ("execution_id")
);

-- CreateIndex
CREATE INDEX "execution_undos_member_id_claimed_at_idx" ON "execution_undos"("member_id", "claimed_at");

-- AddForeignKey
ALTER TABLE "execution_undos" ADD CONSTRAINT "execution_undos_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
