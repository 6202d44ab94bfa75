/**
 * Sign-in, sign-out, the signed-in member, password change and invitation acceptance.
 */
import type { AuthenticatedActor, MemberFigures } from '../../core/auth/access';
import { hashPassword, unusablePasswordHash, verifyPassword } from '../../core/auth/password';
import { assertPasswordTransport, type RequestTransport } from '../../core/auth/transport';
import { config } from '../../core/config';
import { db } from '../../core/db';
import { appError, rateLimitError } from '../../core/errors/app-error';
import { hit, rateLimitSubject } from '../../core/http/rate-limit';
import { auditByOf, recordAudit } from '../../core/audit';
import { memberFootprint, presentMember, admitInvitee, isInvitationUsable } from '../members';
import * as repo from './repo';
import { clearedSessionCookie, openSession, revokeSession, revokeSessions, type SessionOrigin } from './sessions';

/** Where a password-carrying request comes from: the session's origin and its transport. */
export interface PasswordRequest extends SessionOrigin, RequestTransport {}

export async function signIn(request: PasswordRequest, input: { email: string; password: string }) {
  assertPasswordTransport(request);
  const { LOGIN_MAX_ATTEMPTS, LOGIN_WINDOW_SECONDS } = config();
  const limit = await hit({ key: `login:${rateLimitSubject(request.ip)}`, limit: LOGIN_MAX_ATTEMPTS, windowSeconds: LOGIN_WINDOW_SECONDS });
  if (!limit.allowed) throw rateLimitError('auth.too_many_attempts', limit.retryAfterSeconds);

  const member = await repo.findMemberByEmail(input.email.toLowerCase());
  // Verify even for unknown emails so timing does not reveal which addresses exist.
  const valid = await verifyPassword(input.password, member?.passwordHash ?? unusablePasswordHash);
  if (!member || !valid || member.status !== 'active') throw appError('auth.invalid_credentials');

  const { cookie } = await openSession(member.id, request);
  return { member: presentMember(member, await memberFootprint(member.id)), cookie };
}

/**
 * The member row and, for the route (`memberFigures` in its meta), the counts and the generated-password
 * flag were read by the statement that authenticated this very request; an actor authenticated without
 * them (another caller) has them read here.
 */
export async function currentMember(actor: AuthenticatedActor) {
  const figures = 'figures' in actor && actor.figures ? actor.figures : await readMemberFigures(actor.member.id);
  const { mustChangePassword, ...footprint } = figures;
  return { member: presentMember({ ...actor.member, status: 'active' }, footprint), mustChangePassword };
}

async function readMemberFigures(memberId: string): Promise<MemberFigures> {
  const [footprint, mustChangePassword] = await Promise.all([memberFootprint(memberId), repo.mustChangePassword(memberId)]);
  return { ...footprint, mustChangePassword };
}

export async function signOut(actor: AuthenticatedActor) {
  if (actor.kind === 'session') await revokeSession(actor.sessionId);
  return { signedOut: true as const, cookie: clearedSessionCookie() };
}

export async function changePassword(actor: AuthenticatedActor, input: { currentPassword: string; newPassword: string }, ip: string | null) {
  const member = await repo.findMemberById(actor.member.id);
  if (!member) throw appError('auth.unauthenticated');
  if (!(await verifyPassword(input.currentPassword, member.passwordHash))) throw appError('auth.wrong_password');
  const passwordHash = await hashPassword(input.newPassword);
  return db().$transaction(async (tx) => {
    const updated = await repo.setPasswordHash(member.id, passwordHash, tx);
    const sessionsRevoked = await revokeSessions(member.id, { except: actor.kind === 'session' ? actor.sessionId : undefined }, tx);
    await recordAudit(auditByOf(actor), { action: 'member.password_changed', targetKind: 'member', targetId: member.id, details: { sessionsRevoked }, ip }, tx);
    return { member: presentMember(updated, await memberFootprint(member.id, tx)), sessionsRevoked };
  });
}

/** Accept attempts are counted per client over this window (every attempt counts, like sign-in). */
export const invitationAcceptWindowSeconds = 600;

/**
 * Creates the member an invitation names and signs them in. Unusable tokens are all one 404.
 * Public and carrying a password to hash, so the cheap refusals come first: transport rule, the
 * per-client limit, then the token, and only a usable token pays for the hash.
 */
export async function acceptInvitation(origin: PasswordRequest, input: { token: string; name: string; password: string }) {
  assertPasswordTransport(origin);
  const limit = await hit({
    key: `invitation-accept:${rateLimitSubject(origin.ip)}`,
    limit: config().INVITATION_ACCEPT_MAX_ATTEMPTS,
    windowSeconds: invitationAcceptWindowSeconds,
  });
  if (!limit.allowed) throw rateLimitError('auth.too_many_attempts', limit.retryAfterSeconds);
  if (!(await isInvitationUsable(input.token))) throw appError('request.not_found');
  const passwordHash = await hashPassword(input.password);
  return db().$transaction(async (tx) => {
    const member = await admitInvitee(tx, { token: input.token, name: input.name, passwordHash }, origin.ip);
    const { cookie } = await openSession(member.id, origin, tx);
    return { member: presentMember(member, { mailboxCount: 0, publishedWorkflowCount: 0 }), cookie };
  });
}
