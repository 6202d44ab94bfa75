import { z } from 'zod';
import { emailInput, isoDateTime } from '../../core/http/schemas';

export const roleSchema = z.enum(['member', 'admin']);

export const memberSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    status: z.enum(['active', 'suspended']),
    mailboxCount: z.number().int().min(0),
    publishedWorkflowCount: z.number().int().min(0),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Member' });

export type MemberOutput = z.infer<typeof memberSchema>;

export const invitationSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: roleSchema,
    expiresAt: isoDateTime,
    createdAt: isoDateTime,
    invitedBy: z.uuid().nullable(),
    expired: z.boolean(),
  })
  .meta({ id: 'Invitation' });

export const memberIdInput = z.object({ id: z.uuid() });

export const memberOutput = z.object({ member: memberSchema });

export const memberListOutput = z.object({ members: z.array(memberSchema) });

export const invitationOutput = z.object({ invitation: invitationSchema });

export const invitationListOutput = z.object({ invitations: z.array(invitationSchema) });

export const changeRoleInput = z.object({ id: z.uuid(), role: roleSchema });

export const deactivateOutput = z.object({
  member: memberSchema,
  effects: z.object({
    sessionsRevoked: z.number().int().min(0),
    mailboxesPaused: z.number().int().min(0),
    workflowsUnpublished: z.number().int().min(0),
  }),
});

export const createInvitationInput = z.object({ email: emailInput, role: roleSchema.default('member') });

export const createInvitationOutput = z.object({
  invitation: invitationSchema,
  acceptUrl: z.url(),
  token: z.string(),
});

export const nameInput = z.string().trim().min(1).max(120);
