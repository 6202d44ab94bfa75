import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  changeRoleInput,
  createInvitationInput,
  createInvitationOutput,
  deactivateOutput,
  invitationListOutput,
  invitationOutput,
  memberListOutput,
  memberOutput,
} from './schemas';
import {
  changeRole,
  createInvitation,
  deactivateMember,
  listInvitations,
  listMembers,
  reactivateMember,
  revokeInvitation,
} from './service';
import { docs } from './docs';

const tag = 'Members';
const read = { kind: 'scope', scope: 'admin:read', admin: true } as const;
const write = { kind: 'scope', scope: 'admin:write', admin: true } as const;

export const membersRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/members',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(memberListOutput)
    .query(() => listMembers()),

  changeRole: procedure
    .meta(
      route({
        method: 'PATCH',
        path: '/api/v1/admin/members/{id}',
        access: write,
        errors: ['governance.not_found', 'governance.last_admin'],
        tag,
        summary: docs.changeRole.summary,
        description: docs.changeRole.description,
      }),
    )
    .input(changeRoleInput)
    .output(memberOutput)
    .mutation(({ ctx, input }) => changeRole(actorOf(ctx), input, ctx.ip)),

  deactivate: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/members/{id}/deactivate',
        access: write,
        errors: ['governance.not_found', 'governance.self_target', 'governance.last_admin'],
        tag,
        summary: docs.deactivate.summary,
        description: docs.deactivate.description,
      }),
    )
    .input(uuidParam)
    .output(deactivateOutput)
    .mutation(({ ctx, input }) => deactivateMember(actorOf(ctx), input.id, ctx.ip)),

  reactivate: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/members/{id}/reactivate',
        access: write,
        errors: ['governance.not_found'],
        tag,
        summary: docs.reactivate.summary,
        description: docs.reactivate.description,
      }),
    )
    .input(uuidParam)
    .output(memberOutput)
    .mutation(({ ctx, input }) => reactivateMember(actorOf(ctx), input.id, ctx.ip)),

  listInvitations: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/members/invitations',
        access: read,
        tag,
        summary: docs.listInvitations.summary,
        description: docs.listInvitations.description,
      }),
    )
    .output(invitationListOutput)
    .query(() => listInvitations()),

  invite: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/members/invitations',
        access: write,
        status: 201,
        errors: ['governance.email_taken'],
        tag,
        summary: docs.invite.summary,
        description: docs.invite.description,
      }),
    )
    .input(createInvitationInput)
    .output(createInvitationOutput)
    .mutation(({ ctx, input }) => createInvitation(actorOf(ctx), input, ctx.ip)),

  revokeInvitation: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/admin/members/invitations/{id}',
        access: write,
        errors: ['governance.not_found'],
        tag,
        summary: docs.revokeInvitation.summary,
        description: docs.revokeInvitation.description,
      }),
    )
    .input(uuidParam)
    .output(invitationOutput)
    .mutation(({ ctx, input }) => revokeInvitation(actorOf(ctx), input.id, ctx.ip)),
});
