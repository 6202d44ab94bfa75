/**
 * The en/fr prose (summary and description) of oauthRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  getApp: {
    summary: { en: 'Read an OAuth application', fr: 'Consulter une application OAuth' },
    description: {
      en: 'The provider’s application state, complete even when nothing is registered: the callback URL to register at the provider (`redirectUri`), the scopes per capability (`scopesByCapability`, six keys, empty when the provider does not offer it), the expected client id shape. The secret never leaves the service; `clientSecretHint` shows its last four characters.',
      fr: 'L’état de l’application du fournisseur, complet même si rien n’est enregistré : l’URL de rappel à déclarer chez le fournisseur (`redirectUri`), les portées par capacité (`scopesByCapability`, six clés, vide quand le fournisseur ne l’offre pas), la forme attendue de l’identifiant client. Le secret ne quitte jamais le service ; `clientSecretHint` en montre les quatre derniers caractères.',
    },
  },
  putApp: {
    summary: { en: 'Register an OAuth application', fr: 'Enregistrer une application OAuth' },
    description: {
      en: 'Registers or replaces the provider’s application: `clientId` (1-512, checked against the provider’s shape: 400 `oauth.invalid_client_id`), `clientSecret` (1-512, encrypted, never returned), optional `status` (`active`/`disabled`). Refused without an instance encryption key (409 `oauth.encryption_disabled`). Audited with the client id only.',
      fr: 'Enregistre ou remplace l’application du fournisseur : `clientId` (1-512, vérifié selon la forme du fournisseur : 400 `oauth.invalid_client_id`), `clientSecret` (1-512, chiffré, jamais renvoyé), `status` facultatif (`active`/`disabled`). Refusé sans clé de chiffrement de l’instance (409 `oauth.encryption_disabled`). Journalisé avec l’identifiant client seulement.',
    },
  },
  start: {
    summary: { en: 'Start connecting an account', fr: 'Commencer la connexion d’un compte' },
    description: {
      en: 'Member session only. `capability` (`mail` by default, `drive`, `calendar`, `sheets`, `files`, `sites`) decides the scopes. Answers the provider’s authorization URL (state, PKCE S256, the instance’s callback) valid for 10 minutes. The provider returns the browser to `GET /api/v1/oauth/{provider}/callback`, which stores the grant and, for `mail`, creates or reconnects the mailbox, then redirects to the app.',
      fr: 'Session de membre uniquement. `capability` (`mail` par défaut, `drive`, `calendar`, `sheets`, `files`, `sites`) décide des portées. Répond l’URL d’autorisation du fournisseur (state, PKCE S256, rappel de l’instance) valable 10 minutes. Le fournisseur renvoie le navigateur vers `GET /api/v1/oauth/{provider}/callback`, qui enregistre l’autorisation et, pour `mail`, crée ou reconnecte la boîte, puis redirige vers l’application.',
    },
  },
};
