/** Database rows to API shapes for members and invitations. */
import type { Invitation, Member } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import type { MemberOutput } from './schemas';

/** What a member has elsewhere, counted by the domains that own it (./footprint.ts). */
export interface MemberFootprint {
  /** Every mailbox of the member, whatever its status (a deleted mailbox has no row left). */
  mailboxCount: number;
  /** Workflows with a published version (archived ones have none). */
  publishedWorkflowCount: number;
}

export function presentMember(member: Pick<Member, 'id' | 'email' | 'name' | 'role' | 'status' | 'createdAt'>, footprint: MemberFootprint): MemberOutput {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    role: member.role,
    status: member.status,
    mailboxCount: footprint.mailboxCount,
    publishedWorkflowCount: footprint.publishedWorkflowCount,
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
