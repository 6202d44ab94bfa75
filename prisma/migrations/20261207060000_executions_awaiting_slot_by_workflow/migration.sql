-- The runs that wait for a slot, keyed by workflow: an admission of a workflow whose slots are full while the
-- instance has room asks whether a run of ANOTHER workflow waits (server/engine/run/admission.ts, `other`). Ordered
-- by `seq` alone, that question walked every waiting run of the full workflow itself (its whole backlog, up to
-- WEBHOOK_MAX_QUEUED, at every arrival and every end of a burst at the default 10 slots); by workflow it is two
-- descents of this index (a workflow below, a workflow above). `slotAwaited` (any run at all) reads it as before.
DROP INDEX "executions_awaiting_slot_idx";
CREATE INDEX "executions_awaiting_slot_idx" ON "executions" ("workflow_id") WHERE "status" = 'queued' AND "holds_slot" AND "awaits_slot";
