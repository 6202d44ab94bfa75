/**
 * Turns left `running` by a web process that died. A turn runs in the web process that accepted it
 * (./turn.ts); while it runs it writes its assistant message at least every `turnHeartbeatMs` (the
 * message's `updated_at` is its heartbeat), even when the model is silent. A conversation still
 * `running` whose streaming message has not been written for `turnStaleAfterMs` has lost its process:
 * the sweep marks the conversation and the message `failed` with `assistant.turn_interrupted`, keeping
 * the text written so far, so the member sees what happened and can ask again.
 *
 * Run by the runner every minute (`sweep-assistant-turns`) and once when a web process starts. Every
 * write is conditional on the conversation still being `running` and still stale, so two sweepers, or
 * a turn that wakes up in between, are harmless. A web process that stops cleanly settles its own
 * turns at once (`interruptTurns` in ./turn.ts) and leaves nothing to sweep.
 */
import { db } from '../../core/db';
import { emitToMember } from '../../core/realtime/emit';
import { claimInterruptedConversation, failStreamingMessages, findStaleRunningConversations } from './repo';

/** How often a running turn writes its message, model silent or not. */
export const turnHeartbeatMs = 20_000;
/** A running turn not heard from for this long is gone (several missed heartbeats). */
export const turnStaleAfterMs = 2 * 60_000;

/** Stored on the message of a turn that lost its process (read by the UI through its code). */
export const interruptedError = {
  code: 'assistant.turn_interrupted',
  message: 'The turn was interrupted because the server restarted; the text written so far is kept.',
} as const;

const batch = 200;

/** Marks interrupted turns failed; answers how many conversations it settled. */
export async function sweepInterruptedTurns(now = new Date(), staleAfterMs = turnStaleAfterMs): Promise<number> {
  const cutoff = new Date(now.getTime() - staleAfterMs);
  const candidates = await findStaleRunningConversations(cutoff, batch);
  let settled = 0;
  for (const candidate of candidates) {
    const done = await db().$transaction(async (tx) => {
      // Checked again on the row itself: the turn may have written (or been cancelled) since the read.
      const claimed = await claimInterruptedConversation(tx, candidate.id, cutoff);
      if (claimed === 0) return false;
      await failStreamingMessages(tx, candidate.id, { ...interruptedError });
      await emitToMember(candidate.member_id, 'assistant.changed', { conversationId: candidate.id, status: 'failed' }, tx);
      return true;
    });
    if (done) settled += 1;
  }
  return settled;
}
