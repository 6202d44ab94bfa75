/** Chaînes françaises du premier contact : le changement de mot de passe exigé et la liste « Pour commencer » de l’accueil. */
import type { enOnboarding } from './en-onboarding';

export const frOnboarding: typeof enOnboarding = {
  password: {
    title: 'Choisissez votre mot de passe',
    description: 'Vous vous êtes connecté avec un mot de passe généré. Choisissez le vôtre pour continuer.',
  },
  getStarted: {
    title: 'Pour commencer',
    description: 'Quelques étapes pour mettre vos mails au travail. Chacune se coche d’elle-même une fois faite.',
    progress: (done: number, total: number) => `${done} sur ${total} faites`,
    done: 'Fait',
    todo: 'À faire',
    hide: 'Masquer',
    hideLabel: 'Masquer la liste « Pour commencer »',
    allDone: 'Tout est prêt : vos mails travaillent pour vous.',
    dismiss: 'Fermer',
    show: 'Afficher la liste « Pour commencer »',
    loadError: 'La liste des premiers pas n’a pas pu être chargée.',
    steps: {
      mailbox: { label: 'Connecter une boîte aux lettres', hint: 'Google, Microsoft 365 ou tout serveur IMAP.', action: 'Connecter' },
      template: { label: 'Essayer un modèle sur vos mails', hint: 'Installez un modèle de départ, puis « Essayer sur mes mails ».', action: 'Voir les modèles' },
      publish: { label: 'Publier un workflow', hint: 'Un workflow publié s’exécute de lui-même sur les nouveaux mails.', action: 'Ouvrir les workflows' },
      invite: { label: 'Inviter votre équipe', hint: 'Envoyez une invitation à un collègue.', action: 'Inviter' },
    },
  },
};
