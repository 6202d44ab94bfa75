/** French strings of the administration pages: members, invitations, audit log. */
import { pluralFr as plural } from '../../../i18n/plural';
import type { Dictionary } from '../../../i18n/en';

export const frAdmin: Pick<Dictionary, 'members' | 'invitations' | 'audit'> = {
  members: {
    metaTitle: 'Membres',
    title: 'Membres',
    description: 'Toute l’équipe, avec le rôle et l’état de chacun.',
    columns: {
      name: 'Nom',
      email: 'Adresse e-mail',
      role: 'Rôle',
      status: 'État',
      created: 'Arrivée',
      actions: 'Actions',
    },
    empty: {
      title: 'Aucun membre',
      body: 'Invitez un collègue pour commencer.',
    },
    roleLabel: (name: string) => `Rôle de ${name}`,
    changeRoleTitle: (name: string, role: 'member' | 'admin') =>
      role === 'admin' ? `Faire de ${name} un administrateur\u00a0?` : `Faire de ${name} un simple membre\u00a0?`,
    changeRoleBody: {
      admin: 'Les administrateurs gèrent les membres, les invitations, les clés d’API de toute l’équipe et les réglages de l’instance.',
      member: 'Cette personne perdra l’accès à l’administration.',
    },
    changeRoleConfirm: 'Changer le rôle',
    changingRole: 'Modification…',
    deactivate: 'Désactiver',
    deactivateLabel: (name: string) => `Désactiver ${name}`,
    deactivateTitle: (name: string) => `Désactiver ${name}\u00a0?`,
    deactivateBody:
      'Toutes ses sessions sont fermées, ses boîtes mises en pause et ses workflows dépubliés. Vous pourrez le réactiver plus tard\u00a0; boîtes et workflows resteront arrêtés jusqu’à ce qu’ils soient relancés.',
    deactivateConfirm: 'Désactiver le membre',
    deactivating: 'Désactivation…',
    deactivatedTitle: (name: string) => `${name} a été désactivé`,
    effects: {
      sessionsRevoked: (n: number) => plural(n, 'session fermée', 'sessions fermées'),
      mailboxesPaused: (n: number) => plural(n, 'boîte mise en pause', 'boîtes mises en pause'),
      workflowsUnpublished: (n: number) => plural(n, 'workflow dépublié', 'workflows dépubliés'),
    },
    reactivate: 'Réactiver',
    reactivateLabel: (name: string) => `Réactiver ${name}`,
    reactivateTitle: (name: string) => `Réactiver ${name}\u00a0?`,
    reactivateBody:
      'Cette personne pourra de nouveau se connecter. Ses boîtes restent déconnectées et ses workflows dépubliés jusqu’à ce qu’elle les relance.',
    reactivateConfirm: 'Réactiver le membre',
    reactivating: 'Réactivation…',
  },
  invitations: {
    title: 'Invitations',
    description: 'Invitations en attente. Aucun e-mail n’est envoyé\u00a0: transmettez chaque lien vous-même.',
    invite: 'Inviter un membre',
    columns: {
      email: 'Adresse e-mail',
      role: 'Rôle',
      created: 'Envoyée le',
      expires: 'Expire le',
      actions: 'Actions',
    },
    expired: 'Expirée',
    empty: {
      title: 'Aucune invitation en attente',
      body: 'Invitez un collègue pour lui créer un compte.',
    },
    revoke: 'Révoquer',
    revokeLabel: (email: string) => `Révoquer l’invitation de ${email}`,
    revokeTitle: (email: string) => `Révoquer l’invitation de ${email}\u00a0?`,
    revokeBody: 'Le lien cesse aussitôt de fonctionner. Vous pourrez inviter de nouveau cette adresse plus tard.',
    revokeConfirm: 'Révoquer l’invitation',
    revoking: 'Révocation…',
    dialog: {
      title: 'Inviter un membre',
      description: 'Vous obtenez un lien à lui transmettre. Aucun e-mail n’est envoyé.',
      email: 'Adresse e-mail',
      emailInvalid: 'Saisissez une adresse e-mail valide.',
      role: 'Rôle',
      submit: 'Créer l’invitation',
      submitting: 'Création…',
    },
    link: {
      title: 'Transmettez le lien d’invitation',
      description: (email: string) => `Envoyez ce lien à ${email}. Il permet de choisir son nom et son mot de passe.`,
      warning: (date: string) => `Le lien n’est affiché qu’une seule fois et reste valable jusqu’au ${date}.`,
      label: 'Lien d’invitation',
    },
  },
  audit: {
    metaTitle: 'Journal d’audit',
    title: 'Journal d’audit',
    description: 'Les modifications des membres, invitations, clés et réglages, des plus récentes aux plus anciennes.',
    filterLabel: 'Action',
    filterPlaceholder: 'ex. member.role_changed',
    apply: 'Filtrer',
    clear: 'Effacer',
    columns: {
      at: 'Date',
      actor: 'Auteur',
      action: 'Action',
      target: 'Cible',
      ip: 'Adresse IP',
      details: 'Détails',
    },
    actorKinds: {
      member: 'Membre',
      system: 'Système',
      webhook: 'Webhook',
    },
    viaApiKey: 'par clé d’API',
    empty: {
      title: 'Aucune entrée pour l’instant',
      body: 'Les modifications faites par les membres et par le système apparaîtront ici.',
    },
    emptyFiltered: {
      title: 'Aucune entrée correspondante',
      body: (action: string) => `Aucune entrée n’a l’action «\u00a0${action}\u00a0».`,
    },
    end: 'Vous avez atteint l’entrée la plus ancienne.',
  },
};
