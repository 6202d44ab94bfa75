/**
 * The mailbox watchdog (every minute, runner/tasks/mail-watchdog.task.ts): the field's most reported
 * failure is a mail trigger that silently stops (the workflow says active, nothing errors, nothing
 * runs). An `active` mailbox is *stalled* when
 *
 * - `sync_overdue`: no successful sync for `syncMs` (since it connected, if it never synced): 3x the
 *   5-minute poll that runs even while IDLE watches, plus margin;
 * - `watch_silent`: its watch heartbeat (`watch_alive_at`, written by the holding runner: an IDLE watch
 *   that answered its NOOP, or a successful poll) is older than `watchMs`: a watch that died without
 *   an error, or no runner holding it;
 * - `dispatch_lag`: mail mirrored but not journaled (`mail_dispatch_queue`) for longer than `dispatchMs`.
 *
 * Marking and clearing are each one `UPDATE … RETURNING` guarded by `stalled_since IS [NOT] NULL`, so
 * with several runners (or an overlapping run) only one transaction flips a row and only it notifies:
 * one `mailbox.stalled` per stall, one `mailbox.recovered` per recovery. A mailbox that left `active`
 * (error, paused, disconnected) is cleared silently: its own notification (`mailbox.error`) took over,
 * and its return to `active` raises `mailbox.recovered` in ./mailbox-status.ts. Each newly stalled
 * mailbox's holder is asked to restart its watch and connection (`rewatch`), so a dead socket heals.
 */
import { config } from '../../server/core/config';
import { db } from '../../server/core/db';
import { log } from '../../server/core/log';
import { emitToMember } from '../../server/core/realtime/emit';
import { notify } from '../../server/domains/notifications';
import { dispatchMailWork } from './dispatch';

export type StallReason = 'sync_overdue' | 'watch_silent' | 'dispatch_lag';

export interface StallBounds {
  syncMs: number;
  watchMs: number;
  dispatchMs: number;
}

export function stallBounds(): StallBounds {
  const env = config();
  return {
    syncMs: env.MAIL_STALL_SYNC_MINUTES * 60_000,
    watchMs: env.MAIL_STALL_WATCH_SECONDS * 1000,
    dispatchMs: env.MAIL_STALL_DISPATCH_MINUTES * 60_000,
  };
}

const settingsLink = '/settings/mailboxes';

export interface WatchdogOutcome {
  stalled: Array<{ mailboxId: string; reason: StallReason }>;
  recovered: string[];
}

/** One pass of the watchdog; `rewatch` false leaves the supervisor alone (tests of the marking itself). */
export async function runMailWatchdog(bounds: StallBounds = stallBounds(), options: { rewatch?: boolean } = {}): Promise<WatchdogOutcome> {
  const syncSeconds = bounds.syncMs / 1000;
  const watchSeconds = bounds.watchMs / 1000;
  const dispatchSeconds = bounds.dispatchMs / 1000;
  const outcome = await db().$transaction(async (tx) => {
    // The reason each active mailbox would be stalled for now (null: healthy), in order of gravity.
    const stalled = await tx.$queryRaw<{ id: string; member_id: string; address: string; reason: StallReason }[]>`
      WITH verdicts AS (
        SELECT m.id, CASE
          WHEN coalesce(m.last_successful_sync_at, m.connected_at) < now() - make_interval(secs => ${syncSeconds}::float8) THEN 'sync_overdue'
          WHEN m.watch_alive_at < now() - make_interval(secs => ${watchSeconds}::float8) THEN 'watch_silent'
          WHEN (SELECT min(q.enqueued_at) FROM mail_dispatch_queue q WHERE q.mailbox_id = m.id)
               < now() - make_interval(secs => ${dispatchSeconds}::float8) THEN 'dispatch_lag'
        END AS reason
        FROM mailboxes m
        WHERE m.status = 'active' AND m.stalled_since IS NULL
      )
      UPDATE mailboxes m SET stalled_since = now(), stalled_reason = v.reason
        FROM verdicts v
       WHERE m.id = v.id AND v.reason IS NOT NULL AND m.stalled_since IS NULL AND m.status = 'active'
      RETURNING m.id, m.member_id, m.address, v.reason`;
    const cleared = await tx.$queryRaw<{ id: string; member_id: string; address: string; status: string }[]>`
      UPDATE mailboxes m SET stalled_since = NULL, stalled_reason = NULL
       WHERE m.stalled_since IS NOT NULL
         AND (m.status <> 'active' OR NOT (
           coalesce(m.last_successful_sync_at, m.connected_at) < now() - make_interval(secs => ${syncSeconds}::float8)
           OR coalesce(m.watch_alive_at < now() - make_interval(secs => ${watchSeconds}::float8), false)
           OR coalesce((SELECT min(q.enqueued_at) FROM mail_dispatch_queue q WHERE q.mailbox_id = m.id)
                 < now() - make_interval(secs => ${dispatchSeconds}::float8), false)))
      RETURNING m.id, m.member_id, m.address, m.status`;
    for (const row of stalled) {
      await notify(
        { memberId: row.member_id, kind: 'mailbox.stalled', severity: 'warning', params: { mailboxId: row.id, address: row.address, reason: row.reason }, link: settingsLink },
        tx,
      );
      await emitToMember(row.member_id, 'mailbox.status', { mailboxId: row.id, status: 'active' }, tx);
    }
    const recovered = cleared.filter((row) => row.status === 'active');
    for (const row of recovered) {
      await notify({ memberId: row.member_id, kind: 'mailbox.recovered', severity: 'info', params: { mailboxId: row.id, address: row.address }, link: settingsLink }, tx);
      await emitToMember(row.member_id, 'mailbox.status', { mailboxId: row.id, status: 'active' }, tx);
    }
    return { stalled: stalled.map((row) => ({ mailboxId: row.id, reason: row.reason })), recovered: recovered.map((row) => row.id) };
  });
  if (options.rewatch !== false) {
    for (const { mailboxId } of outcome.stalled) {
      await dispatchMailWork(mailboxId, { rewatch: true }).catch((error: unknown) => log.warn({ mailboxId, err: error }, 'asking for a mailbox rewatch failed'));
    }
  }
  for (const { mailboxId, reason } of outcome.stalled) log.warn({ mailboxId, reason }, 'mailbox stalled');
  for (const mailboxId of outcome.recovered) log.info({ mailboxId }, 'mailbox no longer stalled');
  return outcome;
}
