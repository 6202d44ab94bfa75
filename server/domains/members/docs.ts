/**
 * The en/fr prose (summary and description) of membersRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'List members', fr: 'Lister les membres' },
    description: { en: 'Every member of the team, oldest first.', fr: 'Tous les membres de l’équipe, du plus ancien au plus récent.' },
  },
  changeRole: {
    summary: { en: 'Change a member’s role', fr: 'Changer le rôle d’un membre' },
    description: {
      en: 'Sets the role to `member` or `admin`. Demoting the last active administrator is refused. Audited.',
      fr: 'Donne le rôle `member` ou `admin`. Rétrograder le dernier administrateur actif est refusé. Journalisé.',
    },
  },
  deactivate: {
    summary: { en: 'Deactivate a member', fr: 'Désactiver un membre' },
    description: {
      en: 'Suspends the member: sessions revoked, mailboxes paused, workflows unpublished (counts returned). Not yourself, not the last active administrator.',
      fr: 'Suspend le membre : sessions fermées, boîtes mises en pause, workflows dépubliés (nombres renvoyés). Ni soi-même, ni le dernier administrateur actif.',
    },
  },
  reactivate: {
    summary: { en: 'Reactivate a member', fr: 'Réactiver un membre' },
    description: {
      en: 'Makes a suspended member active again; mailboxes stay disconnected and workflows unpublished.',
      fr: 'Réactive un membre suspendu ; ses boîtes restent déconnectées et ses workflows dépubliés.',
    },
  },
  listInvitations: {
    summary: { en: 'List pending invitations', fr: 'Lister les invitations en attente' },
    description: {
      en: 'Invitations neither accepted nor revoked, newest first; expired ones show `expired: true`.',
      fr: 'Invitations ni acceptées ni révoquées, les plus récentes d’abord ; les expirées portent `expired: true`.',
    },
  },
  invite: {
    summary: { en: 'Invite a member', fr: 'Inviter un membre' },
    description: {
      en: 'Creates an invitation (role `member` by default) and returns the accept link and token: the only time the clear token leaves the instance. Nothing is emailed. Refused when a member or a pending invitation already uses the address.',
      fr: 'Crée une invitation (rôle `member` par défaut) et renvoie le lien d’acceptation et le jeton : la seule fois où le jeton en clair quitte l’instance. Aucun e-mail n’est envoyé. Refusé si un membre ou une invitation en attente utilise déjà l’adresse.',
    },
  },
  revokeInvitation: {
    summary: { en: 'Revoke an invitation', fr: 'Révoquer une invitation' },
    description: {
      en: 'Revokes a pending invitation; its link stops working at once.',
      fr: 'Révoque une invitation en attente ; son lien cesse aussitôt de fonctionner.',
    },
  },
};
