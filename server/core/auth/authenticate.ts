/**
 * Turns request headers into an Actor. Shared by the tRPC pipeline and the WebSocket handshake.
 *
 * - `Authorization` present: the key alone decides (a valid cookie beside a bad key is still 401).
 * - otherwise the `session` cookie, when it names a live session of an active member.
 * A key's lookup, its rate-limit hit and its `lastUsedAt` touch run as one SQL statement: one
 * round trip per request, and the only durable write (`lastUsedAt`) happens at most once a minute.
 * A session's lookup and its member's rate-limit hit are one statement too.
 */
import { config } from '../config';
import { db, pool } from '../db';
import { appError, rateLimitError } from '../errors/app-error';
import { currentSecond, judge } from '../http/rate-limit';
import type { Actor, MemberIdentity } from './access';
import { apiKeyPrefix, tokenHash } from './tokens';

export const sessionCookieName = 'session';

export function readCookie(cookieHeader: string | null | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** What both lookups return: the member behind the credential and the rate-limit counts of its bucket. */
interface CountedMemberRow {
  member_id: string;
  email: string;
  name: string;
  role: 'member' | 'admin';
  created_at: Date;
  /** Hits in the current second, this request included. */
  hits: number;
  /** Hits in the window's earlier seconds. */
  earlier: string;
}

interface KeyRow extends CountedMemberRow {
  key_id: string;
  scopes: string[];
}

export const apiKeyRateLimitWindowSeconds = 60;

export function apiKeyLimiterKey(keyId: string): string {
  return `key:${keyId}`;
}

/**
 * The SQL a key-authenticated request runs. Exported so the benchmark's floor server runs exactly it.
 * Parameters: $1 secret hash, $2 current epoch second.
 */
export const apiKeyLookupSql = `
WITH k AS (
  SELECT k.id AS key_id, k.scopes, m.id AS member_id, m.email, m.name, m.role::text AS role, m.created_at
    FROM api_keys k JOIN members m ON m.id = k.member_id
   WHERE k.secret_hash = $1 AND k.revoked_at IS NULL
     AND (k.expires_at IS NULL OR k.expires_at > now()) AND m.status = 'active'
), current AS (
  INSERT INTO rate_limit_buckets (key, second, hits)
  SELECT 'key:' || k.key_id, $2, 1 FROM k
  ON CONFLICT (key, second) DO UPDATE SET hits = rate_limit_buckets.hits + 1
  RETURNING hits
), touched AS (
  UPDATE api_keys SET last_used_at = date_trunc('minute', now())
   WHERE id = (SELECT key_id FROM k)
     AND (last_used_at IS NULL OR last_used_at < date_trunc('minute', now()))
  RETURNING 1
)
SELECT k.*, (SELECT hits FROM current) AS hits,
       (SELECT coalesce(sum(b.hits), 0) FROM rate_limit_buckets b
         WHERE b.key = 'key:' || k.key_id AND b.second > $2 - 60 AND b.second < $2) AS earlier
  FROM k`;

async function authenticateKey(secret: string): Promise<Actor> {
  if (!secret.startsWith(apiKeyPrefix) || secret.length > 200) throw appError('auth.unauthenticated');
  const now = currentSecond();
  // Straight on the pool rather than through Prisma: this runs on every key-authenticated request.
  const { rows } = await pool().query<KeyRow>(apiKeyLookupSql, [tokenHash(secret), now]);
  const row = rows[0];
  if (!row) throw appError('auth.unauthenticated');
  const limit = await judge(
    { key: apiKeyLimiterKey(row.key_id), limit: config().API_KEY_RATE_LIMIT, windowSeconds: apiKeyRateLimitWindowSeconds },
    Number(row.hits) + Number(row.earlier),
    now,
  );
  if (!limit.allowed) throw rateLimitError('api_key.rate_limited', limit.retryAfterSeconds);
  return { kind: 'apiKey', keyId: row.key_id, scopes: row.scopes, member: memberOf(row) };
}

interface SessionRow extends CountedMemberRow {
  session_id: string;
}

export const sessionRateLimitWindowSeconds = 60;

/** One bucket per member for all their sessions: more sessions buy no more requests. */
export function sessionLimiterKey(memberId: string): string {
  return `member:${memberId}`;
}

/**
 * The SQL a session-authenticated request runs: the session and member lookup and the member's
 * rate-limit hit, in one statement as for keys (nothing durable is written).
 * Parameters: $1 token hash, $2 current epoch second.
 */
export const sessionLookupSql = `
WITH s AS (
  SELECT s.id AS session_id, m.id AS member_id, m.email, m.name, m.role::text AS role, m.created_at
    FROM sessions s JOIN members m ON m.id = s.member_id
   WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND m.status = 'active'
), current AS (
  INSERT INTO rate_limit_buckets (key, second, hits)
  SELECT 'member:' || s.member_id, $2, 1 FROM s
  ON CONFLICT (key, second) DO UPDATE SET hits = rate_limit_buckets.hits + 1
  RETURNING hits
)
SELECT s.*, (SELECT hits FROM current) AS hits,
       (SELECT coalesce(sum(b.hits), 0) FROM rate_limit_buckets b
         WHERE b.key = 'member:' || s.member_id AND b.second > $2 - 60 AND b.second < $2) AS earlier
  FROM s`;

/**
 * A live session of an active member, counted against the member's SESSION_RATE_LIMIT (429
 * `request.rate_limited` beyond it); `anonymous` for a cookie that opens nothing.
 */
async function authenticateSession(token: string): Promise<Actor> {
  const now = currentSecond();
  const { rows } = await pool().query<SessionRow>(sessionLookupSql, [tokenHash(token), now]);
  const row = rows[0];
  if (!row) return { kind: 'anonymous' };
  const limit = await judge(
    { key: sessionLimiterKey(row.member_id), limit: config().SESSION_RATE_LIMIT, windowSeconds: sessionRateLimitWindowSeconds },
    Number(row.hits) + Number(row.earlier),
    now,
  );
  if (!limit.allowed) throw rateLimitError('request.rate_limited', limit.retryAfterSeconds);
  return { kind: 'session', sessionId: row.session_id, member: memberOf(row) };
}

/**
 * Whether a session authenticated earlier is still live (not revoked or expired, member active). The
 * real-time server asks again once a socket has joined its rooms, closing the gap in which a session
 * is revoked between the handshake and the join.
 */
export async function isSessionLive(sessionId: string): Promise<boolean> {
  const live = await db().session.count({
    where: { id: sessionId, revokedAt: null, expiresAt: { gt: new Date() }, member: { status: 'active' } },
  });
  return live > 0;
}

function memberOf(row: CountedMemberRow): MemberIdentity {
  return { id: row.member_id, email: row.email, name: row.name, role: row.role === 'admin' ? 'admin' : 'member', createdAt: row.created_at };
}

/**
 * Resolves who is calling. Throws 401 for a bad key, 429 for a key over its rate or a member over
 * their sessions' rate; returns `anonymous` when there is no credential (the caller decides whether
 * the route needs one).
 */
export async function resolveActor(headers: Headers): Promise<Actor> {
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw appError('auth.unauthenticated');
    return authenticateKey(match[1]);
  }
  const token = readCookie(headers.get('cookie'), sessionCookieName);
  return token ? authenticateSession(token) : { kind: 'anonymous' };
}
