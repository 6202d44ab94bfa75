/**
 * Members: administration (role changes, deactivation and reactivation) and invitations.
 *
 * Governance rules from the spec: never leave the team without an active administrator, never
 * deactivate oneself. Changes that could remove the last active admin lock every active admin row
 * first, so concurrent demotions serialise.
 *
 * Invitations: an administrator invites an address with a role; the clear token leaves the instance
 * once, in the creation answer (the invitation is not emailed). Pending means neither accepted nor
 * revoked; an expired pending invitation is listed with `expired: true` until housekeeping purges it.
 */
import type { Member } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { randomToken, tokenHash } from '../../core/auth/tokens';
import { auditByOf, recordAudit } from '../../core/audit';
import { config, publicUrl } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { revokeSessions } from '../auth';
import { pauseMemberMailboxes } from '../mailboxes';
import { publishedWorkflowCounts, unpublishMemberWorkflows } from '../workflows';
import { memberFootprint, memberFootprints } from './footprint';
import { presentInvitation, presentMember } from './present';
import * as repo from './repo';

// --- governance ------------------------------------------------------------------------------

async function findMemberOrThrow(tx: Tx, id: string) {
  const member = await repo.findMemberById(id, tx);
  if (!member) throw appError('governance.not_found');
  return member;
}

async function refuseRemovingLastAdmin(tx: Tx, memberId: string) {
  const admins = await repo.lockActiveAdminIds(tx);
  if (admins.includes(memberId) && admins.length <= 1) throw appError('governance.last_admin');
}

export async function listMembers() {
  const members = await repo.listAllMembers();
  const footprints = await memberFootprints(members.map((member) => member.id));
  return { members: members.map((member) => presentMember(member, footprints.get(member.id)!)) };
}

export async function changeRole(actor: AuthenticatedActor, input: { id: string; role: 'member' | 'admin' }, ip: string | null) {
  return db().$transaction(async (tx) => {
    if (input.role === 'member') await refuseRemovingLastAdmin(tx, input.id);
    const member = await findMemberOrThrow(tx, input.id);
    if (member.role === input.role) return { member: presentMember(member, await memberFootprint(member.id, tx)) };
    const updated = await repo.setMemberRole(member.id, input.role, tx);
    await recordAudit(
      auditByOf(actor),
      { action: 'member.role_changed', targetKind: 'member', targetId: member.id, details: { from: member.role, to: input.role }, ip },
      tx,
    );
    return { member: presentMember(updated, await memberFootprint(member.id, tx)) };
  });
}

export async function deactivateMember(actor: AuthenticatedActor, id: string, ip: string | null) {
  if (id === actor.member.id) throw appError('governance.self_target');
  return db().$transaction(async (tx) => {
    await refuseRemovingLastAdmin(tx, id);
    const member = await findMemberOrThrow(tx, id);
    if (member.status === 'suspended') {
      return { member: presentMember(member, await memberFootprint(id, tx)), effects: { sessionsRevoked: 0, mailboxesPaused: 0, workflowsUnpublished: 0 } };
    }
    const updated = await repo.setMemberStatus(id, 'suspended', tx);
    const sessionsRevoked = await revokeSessions(id, {}, tx);
    // Every mailbox still connected is disconnected (secrets removed); reactivation leaves them so.
    // Counted before the mailboxes go: disconnecting them already disarms the workflows tied to them.
    const workflowsPublished = (await publishedWorkflowCounts([id], tx)).get(id) ?? 0;
    const mailboxesPaused = await pauseMemberMailboxes(id, auditByOf(actor), ip, tx);
    await unpublishMemberWorkflows(id, tx);
    const effects = { sessionsRevoked, mailboxesPaused, workflowsUnpublished: workflowsPublished };
    await recordAudit(auditByOf(actor), { action: 'member.deactivated', targetKind: 'member', targetId: id, details: effects, ip }, tx);
    return { member: presentMember(updated, await memberFootprint(id, tx)), effects };
  });
}

export async function reactivateMember(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    const member = await findMemberOrThrow(tx, id);
    if (member.status === 'active') return { member: presentMember(member, await memberFootprint(id, tx)) };
    // Only the member comes back: their mailboxes stay disconnected until they connect them again.
    const updated = await repo.setMemberStatus(id, 'active', tx);
    await recordAudit(auditByOf(actor), { action: 'member.reactivated', targetKind: 'member', targetId: id, ip }, tx);
    return { member: presentMember(updated, await memberFootprint(id, tx)) };
  });
}

// --- invitations -----------------------------------------------------------------------------

export async function listInvitations() {
  const invitations = await repo.listPendingInvitations();
  const now = new Date();
  return { invitations: invitations.map((invitation) => presentInvitation(invitation, now)) };
}

/**
 * The accept link is built from the configured public address (PUBLIC_URL, else the address the
 * server listens on), never from request headers: a `Host` of the caller's choosing would turn the
 * link into one that hands the token to another site.
 */
export async function createInvitation(actor: AuthenticatedActor, input: { email: string; role: 'member' | 'admin' }, ip: string | null) {
  const token = randomToken();
  return db().$transaction(async (tx) => {
    await repo.lockInvitationAddress(input.email, tx);
    const taken = (await repo.findMemberByEmail(input.email, tx)) ?? (await repo.findLivePendingInvitation(input.email, tx));
    if (taken) throw appError('governance.email_taken');
    const invitation = await repo.insertInvitation(
      {
        email: input.email,
        role: input.role,
        tokenHash: tokenHash(token),
        invitedById: actor.member.id,
        expiresAt: new Date(Date.now() + config().INVITATION_TTL_DAYS * 24 * 3600 * 1000),
      },
      tx,
    );
    await recordAudit(
      auditByOf(actor),
      { action: 'invitation.created', targetKind: 'invitation', targetId: invitation.id, details: { email: input.email, role: input.role }, ip },
      tx,
    );
    return { invitation: presentInvitation(invitation), acceptUrl: acceptUrlFor(publicUrl(), token), token };
  });
}

/** The token rides in the fragment: browsers never send it to a server, a proxy log or a Referer. */
export function acceptUrlFor(baseUrl: string, token: string): string {
  return `${baseUrl}/invitations/accept#token=${encodeURIComponent(token)}`;
}

export async function revokeInvitation(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    if ((await repo.revokePendingInvitation(id, tx)) === 0) throw appError('governance.not_found');
    const invitation = await repo.findInvitationOrThrow(id, tx);
    await recordAudit(auditByOf(actor), { action: 'invitation.revoked', targetKind: 'invitation', targetId: id, details: { email: invitation.email }, ip }, tx);
    return { invitation: presentInvitation(invitation) };
  });
}

/** Whether a token names an invitation that can still be accepted: a cheap check before costly work. */
export async function isInvitationUsable(token: string): Promise<boolean> {
  return (await repo.findUsableInvitation(tokenHash(token))) !== null;
}

/**
 * Inside the caller's transaction (which also opens the newcomer's session): claims the invitation,
 * creates the member it names and audits. An unknown, expired, revoked or used token is one 404.
 */
export async function admitInvitee(tx: Tx, input: { token: string; name: string; passwordHash: string }, ip: string | null): Promise<Member> {
  const invitation = await repo.claimUsableInvitation(tokenHash(input.token), tx);
  if (!invitation) throw appError('request.not_found');
  if (await repo.findMemberByEmail(invitation.email, tx)) throw appError('governance.email_taken');
  const member = await repo.insertMember({ email: invitation.email, name: input.name, role: invitation.role, passwordHash: input.passwordHash }, tx);
  await repo.linkInvitationToMember(invitation.id, member.id, tx);
  await recordAudit(
    { memberId: member.id },
    { action: 'invitation.accepted', targetKind: 'invitation', targetId: invitation.id, details: { role: member.role }, ip },
    tx,
  );
  return member;
}
