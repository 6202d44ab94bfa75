/**
 * The en/fr prose (summary and description) of apiKeysRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  create: {
    summary: { en: 'Create an API key', fr: 'Créer une clé d’API' },
    description: {
      en: 'Creates a key for the signed-in member: name (1-120), scopes (1-20, `<domain>:read` or `<domain>:write`; write implies read), optional expiry in days (1-730). The secret is in this answer only. A member holds at most 50 live keys (not revoked, not expired; `API_KEYS_MAX_PER_MEMBER`): beyond, 409 `api_key.limit_reached` with `details.limit`; revoke one first.',
      fr: 'Crée une clé pour le membre connecté : nom (1-120), portées (1-20, `<domaine>:read` ou `<domaine>:write` ; l’écriture inclut la lecture), expiration facultative en jours (1-730). Le secret ne figure que dans cette réponse. Un membre détient au plus 50 clés vivantes (ni révoquées ni expirées ; `API_KEYS_MAX_PER_MEMBER`) : au-delà, 409 `api_key.limit_reached` avec `details.limit` ; révoquez-en une d’abord.',
    },
  },
  list: {
    summary: { en: 'List my API keys', fr: 'Lister mes clés d’API' },
    description: {
      en: 'All keys of the signed-in member, newest first, revoked and expired ones included.',
      fr: 'Toutes les clés du membre connecté, les plus récentes d’abord, y compris révoquées et expirées.',
    },
  },
  revoke: {
    summary: { en: 'Revoke one of my API keys', fr: 'Révoquer une de mes clés d’API' },
    description: {
      en: 'Revokes the key at once and for good. Revoking again keeps the first date.',
      fr: 'Révoque la clé immédiatement et définitivement. Une nouvelle révocation garde la première date.',
    },
  },
  adminList: {
    summary: { en: 'List every API key', fr: 'Lister toutes les clés d’API' },
    description: {
      en: 'All keys of the instance with their owner (administrators).',
      fr: 'Toutes les clés de l’instance avec leur propriétaire (administrateurs).',
    },
  },
  adminRevoke: {
    summary: { en: 'Revoke any API key', fr: 'Révoquer n’importe quelle clé d’API' },
    description: {
      en: 'Revokes a key of any member (administrators). Revoking again keeps the first date.',
      fr: 'Révoque la clé de n’importe quel membre (administrateurs). Une nouvelle révocation garde la première date.',
    },
  },
};
