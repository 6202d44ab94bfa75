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
import { findPendingWithoutJob, journalAttemptsUnknown, markStaleRunningUnknown } from './repo';

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
    const rows = await markStaleRunningUnknown(
      tx,
      uncertain,
      { staleRunningSecs: sendSweepTiming.staleRunningMs / 1000, graceSecs: sendSweepTiming.graceMs / 1000, liveSecs: liveMs / 1000 },
      limit,
    );
    if (rows.length === 0) return 0;
    await journalAttemptsUnknown(
      tx,
      rows.map((row) => row.id),
      uncertain,
    );
    for (const row of rows) await emitToMember(row.member_id, 'outbound.changed', { outboundId: row.id, mailboxId: row.mailbox_id, sendStatus: 'unknown' }, tx);
    return rows.length;
  });
  const lost = await findPendingWithoutJob({ lostJobAfterSecs: sendSweepTiming.lostJobAfterMs / 1000, orphanLockSecs: sendSweepTiming.orphanLockMs / 1000 }, limit);
  for (const row of lost) {
    await enqueue('mail.send', { outboundId: row.id }, { jobKey: jobKeys.send(row.id), runAt: row.run_at && row.run_at.getTime() > Date.now() ? row.run_at : undefined });
  }
  return { unknown, requeued: lost.length };
}
