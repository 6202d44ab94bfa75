/** Database rows to API shapes for members and invitations. */
import type { Invitation, Member } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import type { MemberOutput } from './schemas';

/**
 * Mailboxes and workflows arrive with later domains; until then a member has none of either, so the
 * counts are truthfully zero. Those domains will provide the counts through memberFootprint().
 */
export function presentMember(member: Pick<Member, 'id' | 'email' | 'name' | 'role' | 'status' | 'createdAt'>): MemberOutput {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    role: member.role,
    status: member.status,
    mailboxCount: 0,
    publishedWorkflowCount: 0,
    createdAt: iso(member.createdAt),
  };
}

export function presentInvitation(invitation: Invitation, now = new Date()) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    expiresAt: iso(invitation.expiresAt),
    createdAt: iso(invitation.createdAt),
    invitedBy: invitation.invitedById,
    expired: invitation.expiresAt <= now,
  };
}
