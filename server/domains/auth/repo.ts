/** The auth domain's queries: sessions, and the member rows sign-in and password change read and write. */
import { db, type Tx } from '../../core/db';

export function insertSession(
  data: { memberId: string; tokenHash: string; ip: string | null; userAgent: string | null; expiresAt: Date },
  tx: Tx = db(),
) {
  return tx.session.create({ data });
}

/** Ends one live session; 0 when it had already ended. */
export async function revokeSessionById(id: string, tx: Tx = db()): Promise<number> {
  const { count } = await tx.session.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}

/** Ends the member's live sessions (all of them, or all but `except`) and returns the ids it ended. */
export async function revokeLiveSessions(memberId: string, except: string | undefined, tx: Tx = db()): Promise<string[]> {
  const revoked = await tx.session.updateManyAndReturn({
    where: { memberId, revokedAt: null, expiresAt: { gt: new Date() }, ...(except ? { id: { not: except } } : {}) },
    data: { revokedAt: new Date() },
    select: { id: true },
  });
  return revoked.map((session) => session.id);
}

export function findMemberByEmail(email: string) {
  return db().member.findUnique({ where: { email } });
}

export function findMemberById(id: string) {
  return db().member.findUnique({ where: { id } });
}

/** A password the member chose: a generated one no longer needs changing. */
export function setPasswordHash(memberId: string, passwordHash: string, tx: Tx) {
  return tx.member.update({ where: { id: memberId }, data: { passwordHash, mustChangePassword: false } });
}

/** Whether the member still signs in with a generated password (not part of the authentication row). */
export async function mustChangePassword(memberId: string): Promise<boolean> {
  const row = await db().member.findUnique({ where: { id: memberId }, select: { mustChangePassword: true } });
  return row?.mustChangePassword ?? false;
}
