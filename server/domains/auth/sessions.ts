/**
 * Member sessions: a database row per sign-in (so sessions can be counted and revoked) and a cookie
 * `session` holding a random token whose hash names the row. Other domains end sessions through here
 * (deactivation). Ending a session also closes its real-time sockets on every web instance; the
 * command is sent with the revoking transaction and delivered when it commits.
 */
import { config, isProduction } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { sessionCookieName } from '../../core/auth/authenticate';
import { randomToken, tokenHash } from '../../core/auth/tokens';
import { disconnectMemberSockets, disconnectSessionSockets } from '../../core/realtime/disconnect';
import { insertSession, revokeLiveSessions, revokeSessionById } from './repo';

export interface SessionOrigin {
  ip: string | null;
  userAgent: string | null;
}

export async function openSession(memberId: string, origin: SessionOrigin, tx: Tx = db()): Promise<{ cookie: string }> {
  const token = randomToken();
  const ttlSeconds = config().SESSION_TTL_DAYS * 24 * 3600;
  await insertSession(
    {
      memberId,
      tokenHash: tokenHash(token),
      ip: origin.ip,
      userAgent: origin.userAgent?.slice(0, 400) ?? null,
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    },
    tx,
  );
  return { cookie: sessionCookie(token, ttlSeconds) };
}

export function sessionCookie(token: string, maxAgeSeconds: number): string {
  const parts = [`${sessionCookieName}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (isProduction()) parts.push('Secure');
  return parts.join('; ');
}

export function clearedSessionCookie(): string {
  return sessionCookie('', 0);
}

/** Ends one session (sign-out) and closes its sockets. */
export async function revokeSession(sessionId: string, tx: Tx = db()): Promise<void> {
  await revokeSessionById(sessionId, tx);
  await disconnectSessionSockets(sessionId, tx);
}

/**
 * Revokes sessions of a member, optionally keeping one, and closes the member's sockets but those of
 * the kept session. Returns how many sessions were live.
 */
export async function revokeSessions(memberId: string, options: { except?: string } = {}, tx: Tx = db()): Promise<number> {
  const revoked = await revokeLiveSessions(memberId, options.except, tx);
  await disconnectMemberSockets(memberId, { exceptSession: options.except }, tx);
  return revoked.length;
}
