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
        summary: { en: 'List members', fr: 'Lister les membres' },
        description: { en: 'Every member of the team, oldest first.', fr: 'Tous les membres de l’équipe, du plus ancien au plus récent.' },
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
        summary: { en: 'Change a member’s role', fr: 'Changer le rôle d’un membre' },
        description: {
          en: 'Sets the role to `member` or `admin`. Demoting the last active administrator is refused. Audited.',
          fr: 'Donne le rôle `member` ou `admin`. Rétrograder le dernier administrateur actif est refusé. Journalisé.',
        },
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
        summary: { en: 'Deactivate a member', fr: 'Désactiver un membre' },
        description: {
          en: 'Suspends the member: sessions revoked, mailboxes paused, workflows unpublished (counts returned). Not yourself, not the last active administrator.',
          fr: 'Suspend le membre : sessions fermées, boîtes mises en pause, workflows dépubliés (nombres renvoyés). Ni soi-même, ni le dernier administrateur actif.',
        },
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
        summary: { en: 'Reactivate a member', fr: 'Réactiver un membre' },
        description: {
          en: 'Makes a suspended member active again; mailboxes stay disconnected and workflows unpublished.',
          fr: 'Réactive un membre suspendu ; ses boîtes restent déconnectées et ses workflows dépubliés.',
        },
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
        summary: { en: 'List pending invitations', fr: 'Lister les invitations en attente' },
        description: {
          en: 'Invitations neither accepted nor revoked, newest first; expired ones show `expired: true`.',
          fr: 'Invitations ni acceptées ni révoquées, les plus récentes d’abord ; les expirées portent `expired: true`.',
        },
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
        summary: { en: 'Invite a member', fr: 'Inviter un membre' },
        description: {
          en: 'Creates an invitation (role `member` by default) and returns the accept link and token: the only time the clear token leaves the instance. Nothing is emailed. Refused when a member or a pending invitation already uses the address.',
          fr: 'Crée une invitation (rôle `member` par défaut) et renvoie le lien d’acceptation et le jeton : la seule fois où le jeton en clair quitte l’instance. Aucun e-mail n’est envoyé. Refusé si un membre ou une invitation en attente utilise déjà l’adresse.',
        },
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
        summary: { en: 'Revoke an invitation', fr: 'Révoquer une invitation' },
        description: {
          en: 'Revokes a pending invitation; its link stops working at once.',
          fr: 'Révoque une invitation en attente ; son lien cesse aussitôt de fonctionner.',
        },
      }),
    )
    .input(uuidParam)
    .output(invitationOutput)
    .mutation(({ ctx, input }) => revokeInvitation(actorOf(ctx), input.id, ctx.ip)),
});
