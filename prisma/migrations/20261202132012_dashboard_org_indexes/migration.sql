-- CreateIndex
CREATE INDEX "executions_created_at_idx" ON "executions"("created_at" DESC);

-- CreateIndex
CREATE INDEX "incidents_failed_at_id_idx" ON "incidents"("failed_at" DESC, "id" DESC);
