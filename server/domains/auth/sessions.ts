/**
 * Member sessions: a database row per sign-in (so sessions can be counted and revoked) and a cookie
 * `session` holding a random token whose hash names the row. Other domains end sessions through here
 * (deactivation).
 */
import { config, isProduction } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { sessionCookieName } from '../../core/auth/authenticate';
import { randomToken, tokenHash } from '../../core/auth/tokens';
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

/** Ends one session (sign-out). */
export async function revokeSession(sessionId: string, tx: Tx = db()): Promise<void> {
  await revokeSessionById(sessionId, tx);
}

/** Revokes sessions of a member, optionally keeping one. Returns how many were live. */
export async function revokeSessions(memberId: string, options: { except?: string } = {}, tx: Tx = db()): Promise<number> {
  return (await revokeLiveSessions(memberId, options.except, tx)).length;
}
