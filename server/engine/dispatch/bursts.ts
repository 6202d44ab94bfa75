/**
 * Burst coalescing (issue 24 §3, `oneRunAtATime.coalesceSeconds`): the first mail of a key opens a
 * window on its run (`coalesce_until`, run/start.ts), and mail of the same workflow and key arriving
 * before it closes joins that run instead of starting one. The run carries every message in
 * `trigger.batch` (the first included, arrival order; the rest of `trigger` is the first message), and
 * `execution_batch_messages` records them so the messages journal finds the run from any of them.
 * A burst holds at most 20 messages and 512 KB of trigger data (contract/one-run-at-a-time.ts).
 *
 * Race with admission: the joiner locks the run's row and re-reads the window (`FOR UPDATE` re-checks
 * its condition on the row it waited for); admission's UPDATE to `running` is conditional on a closed
 * window, so it waits for a joiner holding the row and then sees the batch it wrote. Either the mail
 * joined a run that had not started, or it starts its own: never lost, never in two runs.
 */
import type { Tx } from '../../core/db';
import { oneRunAtATimeBounds } from '../contract/one-run-at-a-time';

type BurstTx = Pick<Tx, '$queryRaw' | '$executeRaw'>;

/** The first message of a burst: the run's trigger data with its `batch`, recorded as position 0. */
export function openingTriggerData(data: Record<string, unknown>): Record<string, unknown> {
  return { ...data, batch: [data] };
}

export async function recordOpeningMessage(tx: BurstTx, executionId: string, messageId: string): Promise<void> {
  await tx.$executeRaw`INSERT INTO execution_batch_messages (execution_id, message_id, position) VALUES (${executionId}::uuid, ${messageId}::uuid, 0)`;
}

/**
 * Adds the message to the open burst of its workflow and key, if there is one with room; answers the
 * run it joined, or null (the caller starts a run, which opens the next window).
 */
export async function joinOpenBurst(
  tx: BurstTx,
  burst: { workflowId: string; serialKey: string; messageId: string; data: Record<string, unknown> },
): Promise<string | null> {
  const [open] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM executions
     WHERE workflow_id = ${burst.workflowId}::uuid AND serial_key = ${burst.serialKey} AND status = 'queued'
       AND coalesce_until > clock_timestamp()
     ORDER BY seq DESC LIMIT 1
     FOR UPDATE`;
  if (!open) return null;
  const [{ carried, bytes }] = await tx.$queryRaw<{ carried: number; bytes: number }[]>`
    SELECT (SELECT count(*)::int FROM execution_batch_messages WHERE execution_id = ${open.id}::uuid) AS carried,
           (SELECT octet_length(trigger_data::text) FROM executions WHERE id = ${open.id}::uuid) AS bytes`;
  const adding = Buffer.byteLength(JSON.stringify(burst.data));
  // A full burst closes: the message starts the next run, which waits for this one (its key).
  if (carried >= oneRunAtATimeBounds.batchMessages || bytes + adding > oneRunAtATimeBounds.batchBytes) return null;
  await tx.$executeRaw`
    INSERT INTO execution_batch_messages (execution_id, message_id, position)
    VALUES (${open.id}::uuid, ${burst.messageId}::uuid, ${carried})`;
  await tx.$executeRaw`
    UPDATE executions
       SET trigger_data = jsonb_set(trigger_data, '{batch}', coalesce(trigger_data -> 'batch', '[]'::jsonb) || jsonb_build_array(${JSON.stringify(burst.data)}::jsonb)),
           updated_at = now()
     WHERE id = ${open.id}::uuid`;
  return open.id;
}
