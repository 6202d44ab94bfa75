/**
 * The send pipeline's safety net, run every few seconds by every runner (runner/send/sweeper-loop.ts):
 *
 * - a `running` send whose runner is not alive (no `runner_instances` heartbeat within `liveMs`), or
 *   that started more than 10 minutes ago, is `unknown` (`uncertain`): the message may have left, so
 *   it is never sent again without a member's decision;
 * - a `pending` send that may go out but has no job (lost with a crashed runner: graphile-worker keeps
 *   a dead worker's locked jobs for hours) is given its job again. The claim only takes `pending`
 *   items under a row lock, so a duplicate job finds nothing to do.
 *
 * Several runners sweeping together: the UPDATE decides each item once (row locks), job keys dedupe.
 */
import { db } from '../../../core/db';
import { jobKeys } from '../../../core/jobs/catalogue';
import { enqueue } from '../../../core/jobs/enqueue';
import { leaseTiming } from '../../../mail/lease';
import { emitToMember } from '../../../core/realtime/emit';

export const sendSweepTiming = {
  everyMs: 3_000,
  /** A send running longer than this is given up as `unknown` even if its runner lives. */
  staleRunningMs: 10 * 60_000,
  /** A just-claimed send is left alone this long (its runner's first heartbeat may be on its way). */
  graceMs: 5_000,
  /** A job locked this long by a runner is presumed lost with it (see the engine sweeper). */
  orphanLockMs: 20_000,
  /** A pending item changed this recently is left to its own job. */
  lostJobAfterMs: 10_000,
} as const;

const uncertain = 'The runner sending this message stopped before it knew the outcome; whether it was delivered cannot be confirmed.';

export async function sweepSends(options: { liveMs?: number; limit?: number } = {}): Promise<{ unknown: number; requeued: number }> {
  const liveMs = options.liveMs ?? leaseTiming.liveMs;
  const limit = options.limit ?? 500;
  const unknown = await db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; member_id: string; mailbox_id: string; send_attempts: number }[]>`
      UPDATE outbound_messages o SET send_status = 'unknown', send_error_kind = 'uncertain', send_error_message = ${uncertain}, updated_at = now()
       WHERE o.id IN (
         SELECT c.id FROM outbound_messages c
          WHERE c.send_status = 'running'
            AND (c.send_started_at IS NULL
                 OR c.send_started_at < now() - make_interval(secs => ${sendSweepTiming.staleRunningMs / 1000})
                 OR (c.send_started_at < now() - make_interval(secs => ${sendSweepTiming.graceMs / 1000})
                     AND NOT EXISTS (SELECT 1 FROM runner_instances r WHERE r.id = c.send_runner_id
                                       AND r.heartbeat_at > now() - make_interval(secs => ${liveMs / 1000}))))
          LIMIT ${limit} FOR UPDATE SKIP LOCKED)
         AND o.send_status = 'running'
      RETURNING o.id, o.member_id, o.mailbox_id, o.send_attempts`;
    if (rows.length === 0) return 0;
    await tx.$executeRaw`
      UPDATE sending_journal SET result = 'unknown', error_kind = 'uncertain', error_message = ${uncertain}, finished_at = now()
       WHERE outbound_id = ANY(${rows.map((row) => row.id)}::uuid[]) AND event = 'attempt' AND result = 'running'`;
    for (const row of rows) await emitToMember(row.member_id, 'outbound.changed', { outboundId: row.id, mailboxId: row.mailbox_id, sendStatus: 'unknown' }, tx);
    return rows.length;
  });
  const lost = await db().$queryRaw<{ id: string; run_at: Date | null }[]>`
    SELECT o.id, GREATEST(o.not_before, o.next_attempt_at) AS run_at FROM outbound_messages o
     WHERE o.send_status = 'pending' AND o.review_status IN ('none', 'sent') AND (o.mode <> 'draft' OR o.review_status = 'sent')
       AND o.content_purged_at IS NULL
       AND o.updated_at < now() - make_interval(secs => ${sendSweepTiming.lostJobAfterMs / 1000})
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'mail-send:' || o.id::text
                         AND (j.locked_at IS NULL OR j.locked_at > now() - make_interval(secs => ${sendSweepTiming.orphanLockMs / 1000})))
     LIMIT ${limit}`;
  for (const row of lost) {
    await enqueue('mail.send', { outboundId: row.id }, { jobKey: jobKeys.send(row.id), runAt: row.run_at && row.run_at.getTime() > Date.now() ? row.run_at : undefined });
  }
  return { unknown, requeued: lost.length };
}
