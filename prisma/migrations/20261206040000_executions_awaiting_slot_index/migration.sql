-- An end's admission first asks whether any queued slot-holding run waits for a freed slot (`awaits_slot`, set when
-- its own admission found none: server/engine/run/admission.ts `slotAwaited`). Read through the live-status index,
-- that question walks every queued run: cheap in a healthy instance, but after a runner outage thousands of queued
-- runs with their own jobs still pending (none waiting yet) would be walked at every end. This index holds only the
-- runs that do wait: usually none, the ones a burst holds back otherwise.
CREATE INDEX "executions_awaiting_slot_idx" ON "executions" ("seq") WHERE "status" = 'queued' AND "holds_slot" AND "awaits_slot";
