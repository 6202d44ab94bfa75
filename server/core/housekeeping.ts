/**
 * Deletion of rows that no longer serve any purpose. Pure data functions run by the runner's cron
 * tasks (and by tests); each returns how many rows it removed. `now` is a parameter so tests can
 * place rows on either side of each boundary.
 */
import { db } from './db';
import { currentSecond, purgeRateLimitBuckets } from './http/rate-limit';

const day = 24 * 60 * 60 * 1000;

/** How long ended sessions and stale invitations stay visible before they are deleted. */
export const retention = {
  /** Ended sessions stay a day, so a member's session list can still show a just-ended one. */
  endedSessionMs: day,
  /** Expired, never accepted invitations keep showing as `expired: true` for 30 days. */
  expiredInvitationMs: 30 * day,
  /** Longer than the longest rate-limit window. */
  rateLimitBucketSeconds: 3600,
} as const;

/** Idempotency records past `expiresAt` can no longer answer a replay. */
export async function purgeExpiredIdempotencyRecords(now = new Date()): Promise<number> {
  const { count } = await db().idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}

/** Sessions that expired or were revoked more than a day ago. */
export async function purgeEndedSessions(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retention.endedSessionMs);
  const { count } = await db().session.deleteMany({
    where: { OR: [{ expiresAt: { lt: before } }, { revokedAt: { lt: before } }] },
  });
  return count;
}

/** Rate-limit buckets older than an hour. */
export async function purgeOldRateLimitBuckets(now = new Date()): Promise<number> {
  return purgeRateLimitBuckets(retention.rateLimitBucketSeconds, currentSecond(now.getTime()));
}

/** Invitations never accepted and expired for more than 30 days. */
export async function purgeStaleInvitations(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retention.expiredInvitationMs);
  const { count } = await db().invitation.deleteMany({ where: { acceptedAt: null, expiresAt: { lt: before } } });
  return count;
}
