/** Asking the runner to sync, resync or backfill a mailbox (jobs written in the request's transaction). */
import type { Mailbox } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue, jobPending } from '../../core/jobs/enqueue';
import { emitToMember } from '../../core/realtime/emit';
import { presentBackfill } from './present';
import * as repo from './repo';

const dayMs = 24 * 3600 * 1000;
/** Spec, Limits: a resync window starts in the past and within 92 days. */
export const resyncWindowDays = 92;

function refuseUnlessActive(mailbox: Mailbox): void {
  if (mailbox.status !== 'active') throw appError('mailbox.not_active', { details: { status: mailbox.status } });
}

/** A delta sync. `enqueued: false` when one is already waiting (not a failure). */
export async function requestSync(actor: AuthenticatedActor, id: string) {
  return db().$transaction(async (tx) => {
    const mailbox = await repo.lockOwnedOrThrow(actor.member.id, id, tx);
    refuseUnlessActive(mailbox);
    const key = jobKeys.sync(mailbox.id);
    if (await jobPending(key, tx)) return { enqueued: false };
    await enqueue('mail.sync', { mailboxId: mailbox.id, reason: 'manual' }, { jobKey: key }, tx);
    return { enqueued: true };
  });
}

/** Whether `since` starts a valid resync window at `now`: in the past and within 92 days. */
export function isResyncWindowValid(since: Date, now: Date): boolean {
  const age = now.getTime() - since.getTime();
  return age > 0 && age <= resyncWindowDays * dayMs;
}

/**
 * Re-reads a past window, silently. A resync already waiting is replaced by this one (the latest
 * window asked wins).
 */
export async function requestResync(actor: AuthenticatedActor, input: { id: string; since: string }) {
  const since = new Date(input.since);
  return db().$transaction(async (tx) => {
    const mailbox = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    if (!isResyncWindowValid(since, new Date())) {
      throw appError('mailbox.resync_window_invalid', { details: { maxDays: resyncWindowDays } });
    }
    refuseUnlessActive(mailbox);
    await enqueue('mail.resync', { mailboxId: mailbox.id, since: since.toISOString() }, { jobKey: jobKeys.resync(mailbox.id) }, tx);
    return { enqueued: true };
  });
}

/**
 * Mirrors older mail down to `since` (null: everything). Asking again for the same window while one
 * is pending or running changes nothing (`enqueued: false`); another window restarts it as pending.
 */
export async function requestBackfill(actor: AuthenticatedActor, input: { id: string; since?: string | null }, ip: string | null) {
  const since = input.since ? new Date(input.since) : null;
  if (since && since.getTime() >= Date.now()) {
    throw appError('request.bad_request', { message: '`since` must be in the past.', details: { reason: 'since_in_future' } });
  }
  return db().$transaction(async (tx) => {
    const current = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    refuseUnlessActive(current);
    const inProgress = current.backfillStatus === 'pending' || current.backfillStatus === 'running';
    if (inProgress && (current.backfillSince?.getTime() ?? null) === (since?.getTime() ?? null)) {
      return { enqueued: false, backfill: presentBackfill(current)! };
    }
    const mailbox = await repo.updateMailbox(current.id, { backfillStatus: 'pending', backfillSince: since, backfillProgressPct: null }, tx);
    await enqueue('mail.backfill', { mailboxId: mailbox.id }, { jobKey: jobKeys.backfill(mailbox.id) }, tx);
    const backfill = presentBackfill(mailbox)!;
    await recordAudit(
      auditByOf(actor),
      { action: 'mailbox.backfill_requested', targetKind: 'mailbox', targetId: mailbox.id, details: { since: since?.toISOString() ?? null }, ip },
      tx,
    );
    await emitToMember(mailbox.memberId, 'mailbox.status', { mailboxId: mailbox.id, status: mailbox.status, backfill }, tx);
    return { enqueued: true, backfill };
  });
}
