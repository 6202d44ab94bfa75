/**
 * A mailbox's health after each sync run: success resets the failure count and clears `lastError`
 * (an `error` mailbox moves back to `active` with a `mailbox.recovered` notification); a failure
 * records `lastError` {kind, code, message, at, operation, httpStatus}, counts it, and moves the
 * mailbox to `error` with one `mailbox.error` notification when the classifier says so (at once for
 * an authentication failure, after `failuresBeforeError` in a row otherwise). Each change is
 * announced live (`mailbox.status`).
 */
import { db } from '../../server/core/db';
import { emitToMember } from '../../server/core/realtime/emit';
import { backoffMs, movesToError, type ClassifiedSyncError } from '../../server/mail/sync-errors';
import { notify } from '../../server/domains/notifications';

export type SyncOperation = 'sync' | 'backfill' | 'resync' | 'apply-operations' | 'connect';

const settingsLink = '/settings/mailboxes';

/** `leaseOwner`: written only while the mailbox's lease is still this runner's (the fence of server/mail/mirror/writer.ts). */
export async function recordSuccess(mailboxId: string, fields: { delta?: boolean; initialComplete?: boolean } = {}, leaseOwner?: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ member_id: string; address: string; status: string }[]>`
      SELECT member_id, address, status FROM mailboxes WHERE id = ${mailboxId}::uuid AND (${leaseOwner ?? null}::text IS NULL OR lease_owner = ${leaseOwner ?? null}) FOR UPDATE`;
    const mailbox = rows[0];
    if (!mailbox || mailbox.status === 'disconnected') return;
    const recovered = mailbox.status === 'error';
    const delta = fields.delta === true;
    const initial = fields.initialComplete === true;
    const [updated] = await tx.$queryRaw<{ status: string; last_delta_at: Date | null }[]>`
      UPDATE mailboxes SET
        last_delta_at = CASE WHEN ${delta} THEN now() ELSE last_delta_at END,
        last_successful_sync_at = CASE WHEN ${delta} THEN now() ELSE last_successful_sync_at END,
        initial_sync_done_at = CASE WHEN ${initial} THEN coalesce(initial_sync_done_at, now()) ELSE initial_sync_done_at END,
        failure_count = 0, last_error = NULL, status = 'active', updated_at = now()
      WHERE id = ${mailboxId}::uuid
      RETURNING status, last_delta_at`;
    if (recovered) {
      await notify({ memberId: mailbox.member_id, kind: 'mailbox.recovered', severity: 'info', params: { mailboxId, address: mailbox.address }, link: settingsLink }, tx);
    }
    if (recovered || fields.delta) {
      await emitToMember(mailbox.member_id, 'mailbox.status', { mailboxId, status: updated!.status, lastDeltaAt: updated!.last_delta_at?.toISOString() ?? null }, tx);
    }
  });
}

/** Records a failed run; returns how long to wait before the next attempt. */
export async function recordFailure(mailboxId: string, failure: ClassifiedSyncError, operation: SyncOperation): Promise<number> {
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ member_id: string; address: string; status: string; failure_count: number }[]>`
      SELECT member_id, address, status, failure_count FROM mailboxes WHERE id = ${mailboxId}::uuid FOR UPDATE`;
    const mailbox = rows[0];
    if (!mailbox || mailbox.status === 'disconnected') return backoffMs(1);
    // Our own failures (database, bugs) are retried but never counted against the member's server.
    const failures = failure.kind === 'internal' ? mailbox.failure_count : mailbox.failure_count + 1;
    const toError = mailbox.status === 'active' && movesToError(failure.kind, failures);
    const lastError = {
      kind: failure.kind,
      code: failure.code,
      message: failure.message,
      at: new Date().toISOString(),
      operation,
      httpStatus: failure.httpStatus,
    };
    await tx.mailbox.update({
      where: { id: mailboxId },
      data: {
        failureCount: failures,
        ...(failure.kind === 'internal' ? {} : { lastError }),
        ...(toError ? { status: 'error' } : {}),
      },
    });
    if (toError) {
      await tx.$executeRaw`UPDATE mailboxes SET backfill_status = 'failed' WHERE id = ${mailboxId}::uuid AND backfill_status IN ('pending', 'running')`;
      await notify(
        { memberId: mailbox.member_id, kind: 'mailbox.error', severity: 'error', params: { mailboxId, address: mailbox.address, kind: failure.kind }, link: settingsLink },
        tx,
      );
      await emitToMember(mailbox.member_id, 'mailbox.status', { mailboxId, status: 'error' }, tx);
    }
    return backoffMs(Math.max(failures, 1), failure.retryAfterMs);
  });
}
