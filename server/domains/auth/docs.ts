/**
 * The en/fr prose (summary and description) of authRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  login: {
    summary: { en: 'Sign in', fr: 'Se connecter' },
    description: {
      en: 'Checks the email and password and sets the `session` cookie (HttpOnly, SameSite=Lax, Secure in production). Rate-limited per IP.',
      fr: 'Vérifie l’adresse et le mot de passe puis pose le cookie `session` (HttpOnly, SameSite=Lax, Secure en production). Limité par adresse IP.',
    },
  },
  me: {
    summary: { en: 'Signed-in member', fr: 'Membre connecté' },
    description: {
      en: 'Returns the member behind the session, or behind the API key (any scope). `mustChangePassword` is true while the member still signs in with a generated password (the first administrator’s, when ADMIN_PASSWORD was not set); changing the password (POST /api/v1/me/password) clears it.',
      fr: 'Renvoie le membre de la session, ou celui de la clé d’API (quelle que soit sa portée). `mustChangePassword` vaut true tant que le membre se connecte avec un mot de passe généré (celui du premier administrateur, quand ADMIN_PASSWORD n’était pas défini) ; changer le mot de passe (POST /api/v1/me/password) le remet à false.',
    },
  },
  logout: {
    summary: { en: 'Sign out', fr: 'Se déconnecter' },
    description: {
      en: 'Ends the current session and clears the cookie.',
      fr: 'Met fin à la session en cours et efface le cookie.',
    },
  },
  changePassword: {
    summary: { en: 'Change my password', fr: 'Changer mon mot de passe' },
    description: {
      en: 'Checks the current password, sets the new one (10 to 200 characters) and signs out every other session of the member.',
      fr: 'Vérifie le mot de passe actuel, enregistre le nouveau (10 à 200 caractères) et ferme toutes les autres sessions du membre.',
    },
  },
  acceptInvitation: {
    summary: { en: 'Accept an invitation', fr: 'Accepter une invitation' },
    description: {
      en: 'Creates the invited member with the given name and password and signs them in. An unknown, expired, revoked or used token is 404. Like sign-in, refused when not over HTTPS in production and rate-limited per IP (IPv6: per /64).',
      fr: 'Crée le membre invité avec ce nom et ce mot de passe, puis ouvre sa session. Un jeton inconnu, expiré, révoqué ou déjà utilisé donne 404. Comme la connexion, refusé hors HTTPS en production et limité par adresse IP (IPv6 : par /64).',
    },
  },
};
