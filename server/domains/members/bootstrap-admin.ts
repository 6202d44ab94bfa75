/**
 * The first administrator of a new instance, created at startup when the members table is empty,
 * from ADMIN_EMAIL / ADMIN_PASSWORD (defaults: `admin@localhost` and a generated password that the
 * caller shows once, and that the interface asks to change at first sign-in). Later starts find members and do nothing, whatever the variables say.
 */
import { randomBytes } from 'node:crypto';
import { recordAudit } from '../../core/audit';
import { hashPassword, passwordBounds } from '../../core/auth/password';
import { db } from '../../core/db';
import { countMembers, insertMember, lockFirstAdminCreation } from './repo';

/** `process.env` or any object with these two variables. */
export type FirstAdminEnv = Record<string, string | undefined> & { ADMIN_EMAIL?: string; ADMIN_PASSWORD?: string };

export type FirstAdminResult =
  | { created: false }
  /** `generatedPassword` is set only when ADMIN_PASSWORD was not given: show it once, never log it. */
  | { created: true; memberId: string; email: string; generatedPassword: string | null };

export const defaultAdminEmail = 'admin@localhost';

/**
 * Deliberately looser than the API's email schema: the default `admin@localhost` has no domain dot,
 * and sign-in accepts any address it finds, lower-cased.
 */
function adminEmail(env: FirstAdminEnv): string {
  const email = (env.ADMIN_EMAIL?.trim() || defaultAdminEmail).toLowerCase();
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`ADMIN_EMAIL is not a valid email address: ${email}`);
  return email;
}

function adminPassword(env: FirstAdminEnv): { password: string; generated: boolean } {
  const given = env.ADMIN_PASSWORD;
  if (given === undefined || given === '') return { password: randomBytes(18).toString('base64url'), generated: true };
  if (given.length < passwordBounds.min || given.length > passwordBounds.max) {
    throw new Error(`ADMIN_PASSWORD must be ${passwordBounds.min} to ${passwordBounds.max} characters long`);
  }
  return { password: given, generated: false };
}

export async function ensureFirstAdmin(env: FirstAdminEnv = process.env): Promise<FirstAdminResult> {
  // Checked first so that ordinary starts skip the deliberately slow password hashing.
  if ((await countMembers()) > 0) return { created: false };
  const email = adminEmail(env);
  const { password, generated } = adminPassword(env);
  const passwordHash = await hashPassword(password);
  return db().$transaction(async (tx) => {
    await lockFirstAdminCreation(tx);
    if ((await countMembers(tx)) > 0) return { created: false } as const;
    const member = await insertMember({ email, name: 'Administrator', role: 'admin', passwordHash, mustChangePassword: generated }, tx);
    await recordAudit(
      'system',
      { action: 'member.created', targetKind: 'member', targetId: member.id, details: { role: 'admin', firstAdministrator: true } },
      tx,
    );
    return { created: true, memberId: member.id, email, generatedPassword: generated ? password : null } as const;
  });
}
