/** French strings of the shell every page shares: navigation, menus, roles, common words. */
import { providerNames as names } from '@/app/lib/provider-names';
import { pluralFr as plural } from './plural';
import type { Dictionary } from './en';

export const frShell: Pick<Dictionary, 'common' | 'language' | 'theme' | 'nav' | 'sections' | 'comingSoon' | 'userMenu' | 'roles' | 'memberStatus' | 'passwords' | 'changePassword' | 'adminOnly' | 'notFound' | 'oauthProviderNames'> = {
  common: {
    cancel: 'Annuler',
    close: 'Fermer',
    done: 'Terminé',
    retry: 'Réessayer',
    loading: 'Chargement…',
    copy: 'Copier',
    copied: 'Copié',
    copyFailed: 'Copie impossible. Sélectionnez le texte et copiez-le vous-même.',
    never: 'Jamais',
    optional: 'facultatif',
    you: 'Vous',
    loadMore: 'Afficher plus',
    loadingMore: 'Chargement…',
    errorTitle: 'Une erreur est survenue',
  },
  language: {
    label: 'Langue',
    en: 'English',
    fr: 'Français',
  },
  theme: {
    label: 'Thème',
    system: 'Système',
    light: 'Clair',
    dark: 'Sombre',
  },
  nav: {
    label: 'Navigation principale',
    skipToContent: 'Aller au contenu',
    openMenu: 'Ouvrir la navigation',
    closeMenu: 'Fermer la navigation',
    groups: {
      automation: 'Automatisation',
      mail: 'Messagerie',
      settings: 'Paramètres',
      admin: 'Administration',
    },
    apiKeys: 'Clés d’API',
    connections: 'Connexions',
    exclusions: 'Exclusions',
    members: 'Membres',
    oauthApps: 'Applications OAuth',
    audit: 'Journal d’audit',
  },
  sections: {
    dashboard: { title: 'Tableau de bord', description: 'Les chiffres de vos boîtes et de vos workflows en un coup d’œil.' },
    workflows: { title: 'Workflows', description: 'Construisez des enchaînements d’étapes déclenchés par un e-mail, un webhook ou un échec.' },
    executions: { title: 'Exécutions', description: 'Suivez chaque exécution de vos workflows, étape par étape.' },
    review: { title: 'Relecture', description: 'Brouillons et envois préparés par vos workflows, en attente de relecture.' },
    approvals: { title: 'Approbations', description: 'Les décisions qu’attendent vos workflows.' },
    mailboxes: { title: 'Boîtes mail', description: 'Connectez et gérez les boîtes que le service synchronise.' },
    messages: { title: 'Messages', description: 'Lisez le courrier synchronisé depuis vos boîtes.' },
    journal: { title: 'Journal des messages', description: 'Ce que chaque nouveau courrier a démarré, ou pourquoi il n’a rien démarré.' },
    tables: { title: 'Tables', description: 'Les tables partagées que vos workflows lisent et modifient.' },
    templates: { title: 'Modèles', description: 'Des workflows prêts à installer et à adapter.' },
    contacts: { title: 'Contacts', description: 'Votre carnet d’adresses, avec une partie partagée et une partie personnelle.' },
    analyzer: { title: 'Analyseur', description: 'Analysez une boîte pour repérer les automatisations utiles.' },
    assistant: { title: 'Assistant', description: 'Demandez à l’assistant de vous aider à construire et corriger vos workflows.' },
    notifications: { title: 'Notifications', description: 'Alertes sur les échecs, les approbations et les incidents.' },
    support: { title: 'Assistance', description: 'Demandes et conversations avec l’équipe qui exploite ce service.' },
  },
  comingSoon: {
    badge: 'Bientôt disponible',
    title: 'Pas encore disponible',
    body: (brand: string) => `Cette partie de ${brand} arrive bientôt. Elle apparaîtra ici dans une prochaine version.`,
  },
  userMenu: {
    label: (name: string) => `Menu du compte de ${name}`,
    changePassword: 'Changer le mot de passe',
    signOut: 'Se déconnecter',
    reload: 'Recharger le compte',
  },
  roles: {
    member: 'Membre',
    admin: 'Administrateur',
  },
  memberStatus: {
    active: 'Actif',
    suspended: 'Suspendu',
  },
  passwords: {
    hint: 'De 10 à 200 caractères.',
    tooShort: 'Utilisez au moins 10 caractères.',
    tooLong: 'Utilisez au plus 200 caractères.',
    mismatch: 'Les deux mots de passe ne correspondent pas.',
  },
  changePassword: {
    title: 'Changer le mot de passe',
    description: 'Vos autres sessions seront fermées. Celle-ci reste ouverte.',
    current: 'Mot de passe actuel',
    next: 'Nouveau mot de passe',
    confirm: 'Confirmer le nouveau mot de passe',
    submit: 'Changer le mot de passe',
    submitting: 'Enregistrement…',
    success: (sessions: number) =>
      sessions === 0
        ? 'Votre mot de passe a été changé.'
        : `Votre mot de passe a été changé. ${plural(sessions, 'autre session a été fermée', 'autres sessions ont été fermées')}.`,
  },
  adminOnly: {
    title: 'Réservé aux administrateurs',
    body: 'Le rôle d’administrateur est nécessaire pour voir cette page.',
  },
  notFound: {
    title: 'Page introuvable',
    body: 'La page que vous cherchez n’existe pas ou a été déplacée.',
    home: 'Aller au tableau de bord',
  },
  oauthProviderNames: { oauth_provider_a: names.oauth_provider_a, oauth_provider_b: names.oauth_provider_b },
};
