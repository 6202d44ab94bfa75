/**
 * Where mail jobs (runner/tasks/mail-*.task.ts) send their work: to this process's supervisor when
 * the runner runs one (the normal case), otherwise (a runner started without watchers, `runOnce` in
 * tests) as a one-shot run under a short lease of its own, or handed to the live holder.
 */
import { randomUUID } from 'node:crypto';
import { db } from '../../server/core/db';
import { releaseLeases, takeLease } from '../../server/mail/lease';
import { MailboxSession, type SessionOptions } from './session';
import { notifyWork, type HandedWork, type MailSupervisor } from './supervisor';

let current: MailSupervisor | null = null;

export function setMailSupervisor(supervisor: MailSupervisor | null): void {
  current = supervisor;
}

/** One-shot runs do at most this many backfill budgets before leaving the rest to the next job. */
const oneShotBackfillRounds = 20;

export async function dispatchMailWork(mailboxId: string, work: HandedWork, options: { session?: SessionOptions } = {}): Promise<string> {
  if (current) return current.dispatch(mailboxId, work);
  if (work.release) {
    await notifyWork(mailboxId, work);
    return 'released';
  }
  // Only the holder's watch can be restarted.
  if (work.rewatch) {
    await notifyWork(mailboxId, work);
    return 'handed-over';
  }
  const owner = `oneshot:${process.pid}:${randomUUID().slice(0, 8)}`;
  if (!(await takeLease(mailboxId, owner))) {
    await notifyWork(mailboxId, work);
    return 'handed-over';
  }
  const session = new MailboxSession(mailboxId, options.session);
  try {
    let request = { ...work };
    for (let round = 0; round < oneShotBackfillRounds; round += 1) {
      const result = await session.run(request, new AbortController().signal);
      if (result.outcome !== 'ok' || (!result.more.backfill && !result.more.operations)) break;
      request = { backfill: result.more.backfill, operations: result.more.operations };
    }
  } finally {
    await session.close();
    await releaseLeases(owner, [mailboxId]);
  }
  return 'local';
}

/** Records a resync window on the mailbox (the earliest asked wins) so whichever runner holds it runs it. */
export async function recordResync(mailboxId: string, since: Date): Promise<void> {
  const iso = since.toISOString();
  await db().$executeRaw`
    UPDATE mailboxes SET sync_state = sync_state || jsonb_build_object('resyncSince',
        CASE WHEN sync_state->>'resyncSince' IS NULL OR (sync_state->>'resyncSince')::timestamptz > ${since}
             THEN ${iso} ELSE sync_state->>'resyncSince' END),
      updated_at = now()
     WHERE id = ${mailboxId}::uuid`;
}

/** A backfill job for a mailbox whose backfill the web side did not mark yet starts it. */
export async function markBackfillPending(mailboxId: string): Promise<void> {
  await db().$executeRaw`
    UPDATE mailboxes SET backfill_status = 'pending', updated_at = now()
     WHERE id = ${mailboxId}::uuid AND (backfill_status IS NULL OR backfill_status IN ('done', 'failed'))`;
}
