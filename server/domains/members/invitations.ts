/**
 * Invitations: an administrator invites an address with a role; the clear token leaves the instance
 * once, in the creation answer (the invitation is not emailed). Pending means neither accepted nor
 * revoked; an expired pending invitation is listed with `expired: true` until housekeeping purges it.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { randomToken, tokenHash } from '../../core/auth/tokens';
import { auditByOf, recordAudit } from '../../core/audit';
import { config } from '../../core/config';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { presentInvitation } from './present';

const pending = { acceptedAt: null, revokedAt: null } as const;

export async function listInvitations() {
  const invitations = await db().invitation.findMany({ where: pending, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  const now = new Date();
  return { invitations: invitations.map((invitation) => presentInvitation(invitation, now)) };
}

export async function createInvitation(
  actor: AuthenticatedActor,
  input: { email: string; role: 'member' | 'admin' },
  origin: { baseUrl: string; ip: string | null },
) {
  const token = randomToken();
  return db().$transaction(async (tx) => {
    // Serialise invitations to one address so two concurrent ones cannot both pass the check below.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invitation:${input.email}`}))`;
    const taken =
      (await tx.member.findUnique({ where: { email: input.email } })) ??
      (await tx.invitation.findFirst({ where: { email: input.email, ...pending, expiresAt: { gt: new Date() } } }));
    if (taken) throw appError('governance.email_taken');
    const invitation = await tx.invitation.create({
      data: {
        email: input.email,
        role: input.role,
        tokenHash: tokenHash(token),
        invitedById: actor.member.id,
        expiresAt: new Date(Date.now() + config().INVITATION_TTL_DAYS * 24 * 3600 * 1000),
      },
    });
    await recordAudit(
      auditByOf(actor),
      { action: 'invitation.created', targetKind: 'invitation', targetId: invitation.id, details: { email: input.email, role: input.role }, ip: origin.ip },
      tx,
    );
    return { invitation: presentInvitation(invitation), acceptUrl: acceptUrlFor(origin.baseUrl, token), token };
  });
}

/** The token rides in the fragment: browsers never send it to a server, a proxy log or a Referer. */
export function acceptUrlFor(baseUrl: string, token: string): string {
  return `${baseUrl}/invitations/accept#token=${encodeURIComponent(token)}`;
}

export async function revokeInvitation(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    const { count } = await tx.invitation.updateMany({ where: { id, ...pending }, data: { revokedAt: new Date() } });
    if (count === 0) throw appError('governance.not_found');
    const invitation = await tx.invitation.findUniqueOrThrow({ where: { id } });
    await recordAudit(auditByOf(actor), { action: 'invitation.revoked', targetKind: 'invitation', targetId: id, details: { email: invitation.email }, ip }, tx);
    return { invitation: presentInvitation(invitation) };
  });
}
