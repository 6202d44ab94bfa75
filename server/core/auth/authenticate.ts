/**
 * Turns request headers into an Actor. Shared by the tRPC pipeline and the WebSocket handshake.
 *
 * - `Authorization` present: the key alone decides (a valid cookie beside a bad key is still 401).
 * - otherwise the `session` cookie, when it names a live session of an active member.
 * A key's lookup, its rate-limit hit and its `lastUsedAt` touch run as one SQL statement: one
 * round trip per request, and the only durable write (`lastUsedAt`) happens at most once a minute.
 * A session's lookup and its member's rate-limit hit are one statement too. A route that answers the
 * member's figures (`memberFigures` in its meta: `GET /api/v1/auth/me`) has them read by that same
 * statement. Each statement is a named prepared statement: PostgreSQL parses and plans it once per
 * connection, not on every request.
 */
import { config } from '../config';
import { db, pool } from '../db';
import { appError, rateLimitError } from '../errors/app-error';
import type { RequestHeaders } from '../http/client-headers';
import { currentSecond, judge } from '../http/rate-limit';
import type { Actor, MemberFigures, MemberIdentity } from './access';
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

/** The figures' columns, present when the statement reads them (see memberFigureColumns). */
interface FigureColumns {
  must_change_password?: boolean;
  mailbox_count?: number;
  published_workflow_count?: number;
}

/**
 * The member's figures (MemberFigures) as columns of the lookup's member row: two counts on indexes led by
 * `member_id` and a column of the row already read. The same counts as memberFootprint() (server/domains/members).
 */
const memberFigureColumns = `,
         m.must_change_password,
         (SELECT count(*) FROM mailboxes x WHERE x.member_id = m.id)::int AS mailbox_count,
         (SELECT count(*) FROM workflows w WHERE w.member_id = m.id AND w.published_version_id IS NOT NULL)::int AS published_workflow_count`;

function figuresOf(row: FigureColumns): MemberFigures | undefined {
  if (row.mailbox_count === undefined) return undefined;
  return {
    mailboxCount: row.mailbox_count,
    publishedWorkflowCount: row.published_workflow_count ?? 0,
    mustChangePassword: row.must_change_password === true,
  };
}

interface KeyRow extends CountedMemberRow, FigureColumns {
  key_id: string;
  scopes: string[];
}

export const apiKeyRateLimitWindowSeconds = 60;

export function apiKeyLimiterKey(keyId: string): string {
  return `key:${keyId}`;
}

/**
 * The SQL a key-authenticated request runs, with the member's figures or without. Parameters: $1 secret
 * hash, $2 current epoch second.
 */
function apiKeyLookup(withFigures: boolean): string {
  return `
WITH k AS (
  SELECT k.id AS key_id, k.scopes, m.id AS member_id, m.email, m.name, m.role::text AS role, m.created_at${withFigures ? memberFigureColumns : ''}
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
}

/** What a key-authenticated request runs. Exported so the benchmarks' floors run exactly it. */
export const apiKeyLookupSql = apiKeyLookup(false);
/** The same, reading the member's figures too (`GET /api/v1/auth/me`; the `npm run bench` floor runs it). */
export const apiKeyLookupWithFiguresSql = apiKeyLookup(true);

/** The names the key statements are prepared under on each pooled connection. */
export const apiKeyLookupStatement = { name: 'auth.key', text: apiKeyLookupSql } as const;
export const apiKeyLookupWithFiguresStatement = { name: 'auth.key.figures', text: apiKeyLookupWithFiguresSql } as const;

async function authenticateKey(secret: string, withFigures: boolean): Promise<Actor> {
  if (!secret.startsWith(apiKeyPrefix) || secret.length > 200) throw appError('auth.unauthenticated');
  const now = currentSecond();
  // Straight on the pool rather than through Prisma: this runs on every key-authenticated request.
  const statement = withFigures ? apiKeyLookupWithFiguresStatement : apiKeyLookupStatement;
  const { rows } = await pool().query<KeyRow>({ ...statement, values: [tokenHash(secret), now] });
  const row = rows[0];
  if (!row) throw appError('auth.unauthenticated');
  const limit = await judge(
    { key: apiKeyLimiterKey(row.key_id), limit: config().API_KEY_RATE_LIMIT, windowSeconds: apiKeyRateLimitWindowSeconds },
    Number(row.hits) + Number(row.earlier),
    now,
  );
  if (!limit.allowed) throw rateLimitError('api_key.rate_limited', limit.retryAfterSeconds);
  return { kind: 'apiKey', keyId: row.key_id, scopes: row.scopes, member: memberOf(row), figures: figuresOf(row) };
}

interface SessionRow extends CountedMemberRow, FigureColumns {
  session_id: string;
}

export const sessionRateLimitWindowSeconds = 60;

/** One bucket per member for all their sessions: more sessions buy no more requests. */
export function sessionLimiterKey(memberId: string): string {
  return `member:${memberId}`;
}

/**
 * The SQL a session-authenticated request runs: the session and member lookup and the member's
 * rate-limit hit, in one statement as for keys (nothing durable is written), with the member's figures
 * or without. Parameters: $1 token hash, $2 current epoch second.
 */
function sessionLookup(withFigures: boolean): string {
  return `
WITH s AS (
  SELECT s.id AS session_id, m.id AS member_id, m.email, m.name, m.role::text AS role, m.created_at${withFigures ? memberFigureColumns : ''}
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
}

export const sessionLookupSql = sessionLookup(false);
const sessionLookupStatement = { name: 'auth.session', text: sessionLookupSql } as const;
const sessionLookupWithFiguresStatement = { name: 'auth.session.figures', text: sessionLookup(true) } as const;

/**
 * A live session of an active member, counted against the member's SESSION_RATE_LIMIT (429
 * `request.rate_limited` beyond it); `anonymous` for a cookie that opens nothing.
 */
async function authenticateSession(token: string, withFigures: boolean): Promise<Actor> {
  const now = currentSecond();
  const statement = withFigures ? sessionLookupWithFiguresStatement : sessionLookupStatement;
  const { rows } = await pool().query<SessionRow>({ ...statement, values: [tokenHash(token), now] });
  const row = rows[0];
  if (!row) return { kind: 'anonymous' };
  const limit = await judge(
    { key: sessionLimiterKey(row.member_id), limit: config().SESSION_RATE_LIMIT, windowSeconds: sessionRateLimitWindowSeconds },
    Number(row.hits) + Number(row.earlier),
    now,
  );
  if (!limit.allowed) throw rateLimitError('request.rate_limited', limit.retryAfterSeconds);
  return { kind: 'session', sessionId: row.session_id, member: memberOf(row), figures: figuresOf(row) };
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
 * the route needs one). `figures`: the route answers the member's figures, read by the same statement.
 */
export async function resolveActor(headers: RequestHeaders, options: { figures?: boolean } = {}): Promise<Actor> {
  const withFigures = options.figures === true;
  const authorization = headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw appError('auth.unauthenticated');
    return authenticateKey(match[1], withFigures);
  }
  const token = readCookie(headers.get('cookie'), sessionCookieName);
  return token ? authenticateSession(token, withFigures) : { kind: 'anonymous' };
}
