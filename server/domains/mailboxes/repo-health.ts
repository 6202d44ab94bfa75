/**
 * The health query (./health.ts): each mailbox with its OAuth grant's sealed data (opened only for its expiry), its
 * dispatch lag (`mail_dispatch_queue`) and the rows its body pass has still to fill, in one statement.
 */
import { db } from '../../core/db';

export interface HealthRow {
  id: string;
  member_id: string;
  address: string;
  provider: string;
  status: string;
  initial_sync_done_at: Date | null;
  last_successful_sync_at: Date | null;
  last_delta_at: Date | null;
  last_error: unknown;
  watch_mode: string | null;
  watch_alive_at: Date | null;
  stalled_since: Date | null;
  stalled_reason: string | null;
  credential_id: string | null;
  credential_data: string | null;
  credential_updated_at: Date | null;
  pending: bigint | null;
  oldest_enqueued_at: Date | null;
  bodies_pending: number;
  alive: boolean;
}

/**
 * The member's mailboxes (every member's when `memberId` is null), oldest first, at most `limit`; `alive` is a
 * watch heartbeat within the last `watchSeconds`.
 */
export function healthRows(memberId: string | null, watchSeconds: number, limit: number) {
  return db().$queryRaw<HealthRow[]>`
    SELECT m.id, m.member_id, m.address, m.provider, m.status, m.initial_sync_done_at, m.last_successful_sync_at,
           m.last_delta_at, m.last_error, m.watch_mode, m.watch_alive_at, m.stalled_since, m.stalled_reason,
           c.id AS credential_id,
           CASE WHEN m.provider <> 'imap' THEN c.data_enc END AS credential_data,
           CASE WHEN m.provider <> 'imap' THEN c.updated_at END AS credential_updated_at,
           q.pending, q.oldest_enqueued_at,
           -- Read through the partial index that holds only the pending rows: nothing to read once the pass is done.
           (SELECT count(*)::int FROM mail_messages b WHERE b.mailbox_id = m.id AND b.body_pending) AS bodies_pending,
           (m.status = 'active' AND m.watch_alive_at IS NOT NULL
             AND m.watch_alive_at >= now() - make_interval(secs => ${watchSeconds}::float8)) AS alive
      FROM mailboxes m
      LEFT JOIN credentials c ON c.id = m.credential_id
      LEFT JOIN LATERAL (
        SELECT count(*) AS pending, min(d.enqueued_at) AS oldest_enqueued_at FROM mail_dispatch_queue d WHERE d.mailbox_id = m.id
      ) q ON true
     WHERE (${memberId}::uuid IS NULL OR m.member_id = ${memberId}::uuid)
     ORDER BY m.created_at, m.id
     LIMIT ${limit}`;
}
