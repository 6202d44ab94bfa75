/** French strings of signing in and accepting an invitation. */
import type { Dictionary } from '../../i18n/en';

export const frAuth: Pick<Dictionary, 'login' | 'accept'> = {
  login: {
    metaTitle: 'Connexion',
    title: (brand: string) => `Connexion à ${brand}`,
    subtitle: 'Bon retour parmi nous. Saisissez votre adresse e-mail et votre mot de passe.',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    submit: 'Se connecter',
    submitting: 'Connexion…',
    emailRequired: 'Saisissez votre adresse e-mail.',
    passwordRequired: 'Saisissez votre mot de passe.',
    rateLimited: (wait: string) => `Trop de tentatives de connexion. Réessayez dans ${wait}.`,
    rateLimitOver: 'Vous pouvez réessayer maintenant.',
    invitationHint: 'Invité dans l’équipe\u00a0? Ouvrez le lien de votre invitation pour créer votre compte.',
    suspended: 'Cette instance est suspendue. Contactez votre fournisseur.',
    support: 'Besoin d’aide\u00a0?',
  },
  accept: {
    metaTitle: 'Accepter l’invitation',
    title: 'Rejoindre l’équipe',
    subtitle: (brand: string) => `Créez votre compte ${brand}.`,
    name: 'Votre nom',
    nameRequired: 'Saisissez votre nom.',
    password: 'Mot de passe',
    confirm: 'Confirmer le mot de passe',
    submit: 'Créer mon compte',
    submitting: 'Création du compte…',
    noToken: {
      title: 'Ce lien est incomplet',
      body: 'Ouvrez le lien d’invitation tel que vous l’avez reçu, ou demandez-en un nouveau à un administrateur.',
    },
    invalid: {
      title: 'Cette invitation n’est plus utilisable',
      body: 'Elle a expiré, a été révoquée ou a déjà servi. Demandez une nouvelle invitation à un administrateur.',
    },
    haveAccount: 'Vous avez déjà un compte\u00a0?',
    signIn: 'Se connecter',
  },
};
