/**
 * Mailbox health: per mailbox its state, sync times, how it is watched and whether that watch is
 * alive (the runner's heartbeat, runner/mail/worker.ts), the last error, the OAuth grant's expiry, the
 * dispatch lag (`mail_dispatch_queue`), the messages the body pass has still to read and the watchdog's stall
 * (runner/mail/watchdog.ts).
 *
 * A member sees their own mailboxes; an administrator may ask for `scope=org` (every member's, no
 * content). Nothing secret leaves: the OAuth grant is opened only for its expiry time.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { config } from '../../core/config';
import { openJson } from '../../core/crypto/secret-box';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { presentLastError } from './present';
import { healthRows, type HealthRow } from './repo-health';
import { mailboxProviderSchema, mailboxStatusSchema } from './schemas';
import { stallReasonSchema, watchModeSchema, type MailboxHealth } from './health-schemas';

/** The most mailboxes one answer lists (an instance's whole org, oldest first). */
export const healthListLimit = 500;

function oauthExpiry(credentialId: string | null, sealed: string | null): Date | null {
  if (!credentialId || !sealed) return null;
  try {
    const secret = openJson(sealed, `credential:${credentialId}`) as { expiresAt?: unknown };
    const date = typeof secret.expiresAt === 'string' ? new Date(secret.expiresAt) : null;
    return date && !Number.isNaN(date.getTime()) ? date : null;
  } catch {
    // A grant sealed under a key this instance no longer has: the sync reports it as an auth error.
    return null;
  }
}

function stateOf(row: HealthRow): MailboxHealth['state'] {
  if (row.status === 'disconnected') return 'disconnected';
  if (row.status === 'error') return 'error';
  if (row.stalled_since) return 'stalled';
  if (!row.initial_sync_done_at || row.bodies_pending > 0) return 'syncing';
  return 'healthy';
}

export function presentHealth(row: HealthRow): MailboxHealth {
  const provider = mailboxProviderSchema.parse(row.provider);
  const reason = stallReasonSchema.safeParse(row.stalled_reason);
  const mode = watchModeSchema.safeParse(row.watch_mode);
  return {
    mailboxId: row.id,
    memberId: row.member_id,
    address: row.address,
    provider,
    status: mailboxStatusSchema.parse(row.status),
    state: stateOf(row),
    lastSuccessfulSyncAt: iso(row.last_successful_sync_at),
    lastDeltaAt: iso(row.last_delta_at),
    watch: { mode: mode.success ? mode.data : null, alive: row.alive, lastHeartbeatAt: iso(row.watch_alive_at) },
    lastError: presentLastError(row.last_error),
    oauth: provider === 'imap' ? null : { expiresAt: iso(oauthExpiry(row.credential_id, row.credential_data)), lastRefreshedAt: iso(row.credential_updated_at) },
    dispatchLag: { pending: Number(row.pending ?? 0), oldestEnqueuedAt: iso(row.oldest_enqueued_at) },
    bodiesPending: row.bodies_pending,
    stalled: row.stalled_since ? { since: row.stalled_since.toISOString(), reason: reason.success ? reason.data : 'sync_overdue' } : null,
  };
}

export async function mailboxHealth(actor: AuthenticatedActor, input: { scope: 'me' | 'org' }): Promise<{ mailboxes: MailboxHealth[] }> {
  if (input.scope === 'org' && actor.member.role !== 'admin') throw appError('auth.forbidden');
  const memberId = input.scope === 'org' ? null : actor.member.id;
  const watchSeconds = config().MAIL_STALL_WATCH_SECONDS;
  const rows = await healthRows(memberId, watchSeconds, healthListLimit);
  return { mailboxes: rows.map(presentHealth) };
}
