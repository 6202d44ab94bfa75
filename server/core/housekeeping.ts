/**
 * Deletion of core rows that no longer serve any purpose (idempotency records, rate-limit buckets).
 * Domains purge their own rows in their `housekeeping.ts` (sessions: auth, invitations: members).
 * Pure data functions run by the runner's cron tasks (and by tests); each returns how many rows it
 * removed. `now` is a parameter so tests can place rows on either side of each boundary.
 */
import { db } from './db';
import { currentSecond, purgeRateLimitBuckets } from './http/rate-limit';

/** How long rows stay before they are deleted. */
export const retention = {
  /** Longer than the longest rate-limit window. */
  rateLimitBucketSeconds: 3600,
} as const;

/** Idempotency records past `expiresAt` can no longer answer a replay. */
export async function purgeExpiredIdempotencyRecords(now = new Date()): Promise<number> {
  const { count } = await db().idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}

/** Rate-limit buckets older than an hour. */
export async function purgeOldRateLimitBuckets(now = new Date()): Promise<number> {
  return purgeRateLimitBuckets(retention.rateLimitBucketSeconds, currentSecond(now.getTime()));
}
