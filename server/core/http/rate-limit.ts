/**
 * Sliding-window rate limits shared by every web instance through PostgreSQL.
 *
 * Hits are counted per limiter key and per second in the UNLOGGED table `rate_limit_buckets`, so
 * counting never waits on a durable write. The window is the last `windowSeconds` whole seconds.
 * A refused hit is taken back, so a client that keeps knocking is not locked out for longer.
 */
import { isIP } from 'node:net';
import { db, pool } from '../db';
import { prepared } from '../db/prepared';
import { ipv6Groups, normaliseIp } from './ip-address';

export interface RateLimitResult {
  allowed: boolean;
  /** Hits in the window including this one (when allowed). */
  count: number;
  retryAfterSeconds: number;
}

export interface RateLimitRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

export function currentSecond(now = Date.now()): number {
  return Math.floor(now / 1000);
}

/**
 * Seconds until the window holds fewer than `limit` hits, given the window's buckets (oldest first).
 * Pure, so it is tested on its own.
 */
export function retryAfterFor(buckets: { second: number; hits: number }[], limit: number, windowSeconds: number, now: number): number {
  let excess = buckets.reduce((sum, bucket) => sum + bucket.hits, 0) - limit + 1;
  for (const bucket of buckets) {
    excess -= bucket.hits;
    if (excess <= 0) return Math.max(1, bucket.second + windowSeconds - now);
  }
  return 1;
}

/**
 * Who a per-IP limit counts: the IPv4 address itself, or the /64 network of an IPv6 address. One
 * IPv6 subscriber usually holds a whole /64 (2^64 addresses), so counting single addresses would let
 * one client take a fresh address per request. An unknown address is one shared subject.
 */
export function rateLimitSubject(ip: string | null): string {
  const address = normaliseIp(ip);
  if (!address) return 'unknown';
  if (isIP(address) === 4) return address;
  const groups = ipv6Groups(address);
  if (!groups) return 'unknown';
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

// Every rate-limited request pays this statement (the webhook entry first of all): prepared, on the pool.
const hitStatement = prepared(`
  WITH current AS (
    INSERT INTO rate_limit_buckets (key, second, hits) VALUES ($1::text, $2::bigint, 1)
    ON CONFLICT (key, second) DO UPDATE SET hits = rate_limit_buckets.hits + 1
    RETURNING hits
  )
  SELECT (SELECT hits FROM current)::int AS hits,
         (SELECT coalesce(sum(hits), 0) FROM rate_limit_buckets
           WHERE key = $1::text AND second > $2::bigint - $3::int AND second < $2::bigint)::bigint AS earlier`);

/** Counts one hit for `rule.key` and says whether it is within the limit. */
export async function hit(rule: RateLimitRule, now = currentSecond()): Promise<RateLimitResult> {
  const { rows } = await pool().query<{ hits: number; earlier: string }>({ ...hitStatement, values: [rule.key, now, rule.windowSeconds] });
  const count = Number(rows[0]!.hits) + Number(rows[0]!.earlier);
  return judge(rule, count, now);
}

/** Completes a hit counted elsewhere (the API key lookup counts in the same statement). */
export async function judge(rule: RateLimitRule, count: number, now = currentSecond()): Promise<RateLimitResult> {
  if (count <= rule.limit) return { allowed: true, count, retryAfterSeconds: 0 };
  await db().$executeRaw`UPDATE rate_limit_buckets SET hits = hits - 1 WHERE key = ${rule.key} AND second = ${now}`;
  const buckets = await db().$queryRaw<{ second: bigint; hits: number }[]>`
    SELECT second, hits FROM rate_limit_buckets
     WHERE key = ${rule.key} AND second > ${now - rule.windowSeconds} ORDER BY second`;
  const retryAfterSeconds = retryAfterFor(
    buckets.map((bucket) => ({ second: Number(bucket.second), hits: bucket.hits })),
    rule.limit,
    rule.windowSeconds,
    now,
  );
  return { allowed: false, count: count - 1, retryAfterSeconds };
}

/** Runner housekeeping: buckets older than the longest window are useless. */
export async function purgeRateLimitBuckets(olderThanSeconds = 3600, now = currentSecond()): Promise<number> {
  return db().$executeRaw`DELETE FROM rate_limit_buckets WHERE second < ${now - olderThanSeconds}`;
}
