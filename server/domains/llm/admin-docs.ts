/**
 * The en/fr prose (summary and description) of llmAdminRouter's routes, one entry per procedure:
 * it lives here so that admin-router.ts reads as wiring (procedure → service).
 */

const connectionRules = {
  en: '`apiKey` (1-512) is required unless `withoutApiKey` is true, which only `ai_local` and `ai_generic_compatible` accept (400 `llm.api_key_required`); sending both is 400 `request.bad_request`. The key is encrypted (409 `llm.encryption_disabled` when the instance has no key) and never returned: `hasApiKey` and `apiKeyHint` (its last four characters) only. `baseUrl` (an http(s) URL ≤ 2048 without credentials, query or fragment; required for `ai_generic_compatible`) must not resolve to a private, loopback, link-local or metadata address (400 `llm.invalid_base_url` with `details.reason` `unsupported_url`, `blocked_address`, `host_not_found` or `required`); `ai_local` may use the instance’s own network when the instance allows it (`LLM_LOCAL_ALLOW_PRIVATE`), metadata addresses never. `enabledModels` (1-64 names of 1-128 characters) restricts the models; null allows any. `label` (1-80) is unique without regard to case (409 `llm.connection_label_taken`).',
  fr: '`apiKey` (1-512) est obligatoire sauf si `withoutApiKey` vaut true, ce que seuls `ai_local` et `ai_generic_compatible` acceptent (400 `llm.api_key_required`) ; envoyer les deux donne 400 `request.bad_request`. La clé est chiffrée (409 `llm.encryption_disabled` si l’instance n’a pas de clé) et jamais renvoyée : seulement `hasApiKey` et `apiKeyHint` (ses quatre derniers caractères). `baseUrl` (une URL http(s) ≤ 2048 sans identifiants, requête ni fragment ; obligatoire pour `ai_generic_compatible`) ne doit pas mener à une adresse privée, locale, de lien local ou de métadonnées (400 `llm.invalid_base_url` avec `details.reason` `unsupported_url`, `blocked_address`, `host_not_found` ou `required`) ; `ai_local` peut viser le réseau de l’instance si l’instance le permet (`LLM_LOCAL_ALLOW_PRIVATE`), jamais une adresse de métadonnées. `enabledModels` (1-64 noms de 1-128 caractères) restreint les modèles ; null les permet tous. `label` (1-80) est unique sans tenir compte de la casse (409 `llm.connection_label_taken`).',
};

export const docs = {
  list: {
    summary: { en: 'List AI connections', fr: 'Lister les connexions IA' },
    description: {
      en: 'Every AI connection of the instance in configuration order (oldest first), in the admin form. Keys are never returned: `hasApiKey` and `apiKeyHint` only.',
      fr: 'Toutes les connexions IA de l’instance dans l’ordre de configuration (les plus anciennes d’abord), sous la forme administrateur. Les clés ne sont jamais renvoyées : seulement `hasApiKey` et `apiKeyHint`.',
    },
  },
  create: {
    summary: { en: 'Add an AI connection', fr: 'Ajouter une connexion IA' },
    description: {
      en: `\`provider\` and \`label\` are required. ${connectionRules.en} \`makeDefault\` makes it the instance default. Answers 201 with the admin form. Audited (\`llm.connection_created\`) without the key.`,
      fr: `\`provider\` et \`label\` sont obligatoires. ${connectionRules.fr} \`makeDefault\` en fait la connexion par défaut de l’instance. Répond 201 avec la forme administrateur. Journalisé (\`llm.connection_created\`) sans la clé.`,
    },
  },
  update: {
    summary: { en: 'Change an AI connection', fr: 'Modifier une connexion IA' },
    description: {
      en: `Every field is optional; an absent field keeps its value (\`apiKey\` absent keeps the key; \`baseUrl\` or \`enabledModels\` null removes them; the provider never changes). ${connectionRules.en} \`withoutApiKey\` true removes the stored key. Moving \`baseUrl\` to another origin while keeping the stored key is 400 \`llm.api_key_required\` (\`details.reason\` \`base_url_changed\`): send the key with it. Answers 200 with the admin form; unknown id 404 \`llm.connection_not_found\`. Audited (\`llm.connection_updated\`, the changed fields) without the key.`,
      fr: `Tous les champs sont facultatifs ; un champ absent garde sa valeur (\`apiKey\` absente garde la clé ; \`baseUrl\` ou \`enabledModels\` à null les retirent ; le fournisseur ne change jamais). ${connectionRules.fr} \`withoutApiKey\` à true retire la clé enregistrée. Déplacer \`baseUrl\` vers une autre origine en gardant la clé enregistrée donne 400 \`llm.api_key_required\` (\`details.reason\` \`base_url_changed\`) : renvoyez la clé avec. Répond 200 avec la forme administrateur ; identifiant inconnu 404 \`llm.connection_not_found\`. Journalisé (\`llm.connection_updated\`, les champs modifiés) sans la clé.`,
    },
  },
  delete: {
    summary: { en: 'Delete an AI connection', fr: 'Supprimer une connexion IA' },
    description: {
      en: 'Deletes the connection and its key. The routing entries that point to it are removed (those purposes fall back to the default connection, then the configuration order); if it was the default, the instance has no default until one is chosen. Usage already recorded stays. Unknown id 404 `llm.connection_not_found`. Audited (`llm.connection_deleted`).',
      fr: 'Supprime la connexion et sa clé. Les choix de routage qui la désignent sont retirés (ces usages se rabattent sur la connexion par défaut, puis sur l’ordre de configuration) ; si c’était la connexion par défaut, l’instance n’en a plus jusqu’au prochain choix. La consommation déjà enregistrée reste. Identifiant inconnu 404 `llm.connection_not_found`. Journalisé (`llm.connection_deleted`).',
    },
  },
  test: {
    summary: { en: 'Test an AI connection', fr: 'Tester une connexion IA' },
    description: {
      en: 'Lists the connection’s models at its provider with the stored key (15 s at most, through the network guard): 200 `{ok: true, modelCount, latencyMs}`, or 200 `{ok: false, code, message}` when the provider cannot be used (`code` such as `auth`, `network`, `host_not_found`, `timeout`, `blocked_address`; the message is ours, never the provider’s text or the key). Unknown id 404 `llm.connection_not_found`. Audited (`llm.connection_tested`) without the key.',
      fr: 'Liste les modèles de la connexion chez son fournisseur avec la clé enregistrée (15 s au plus, via la garde réseau) : 200 `{ok: true, modelCount, latencyMs}`, ou 200 `{ok: false, code, message}` quand le fournisseur est inutilisable (`code` tel que `auth`, `network`, `host_not_found`, `timeout`, `blocked_address` ; le message est le nôtre, jamais le texte du fournisseur ni la clé). Identifiant inconnu 404 `llm.connection_not_found`. Journalisé (`llm.connection_tested`) sans la clé.',
    },
  },
  makeDefault: {
    summary: { en: 'Make an AI connection the default', fr: 'Choisir la connexion IA par défaut' },
    description: {
      en: 'Makes the connection the instance default (the previous default stops being one): it serves every purpose without a routing choice, with its first enabled model or its provider’s default model. Answers 200 with the admin form; again on the default changes nothing. Unknown id 404 `llm.connection_not_found`. Audited (`llm.default_changed`).',
      fr: 'Fait de la connexion celle par défaut de l’instance (la précédente cesse de l’être) : elle sert tout usage sans choix de routage, avec son premier modèle autorisé ou le modèle par défaut de son fournisseur. Répond 200 avec la forme administrateur ; la redemander ne change rien. Identifiant inconnu 404 `llm.connection_not_found`. Journalisé (`llm.default_changed`).',
    },
  },
  getRouting: {
    summary: { en: 'Read the AI routing', fr: 'Consulter le routage IA' },
    description: {
      en: '`routing`: per purpose (`classify`, `compose`, `extract`, `general`, `analyzer`, `assistant`) the administrator’s {connectionId, model}, or null. `effective`: what serves each purpose now, with `source`: `purpose` (the choice), `instanceDefault` (the default connection, its first enabled model or its provider’s default model), `configurationOrder` (the oldest connection that has a model); null when no provider can serve.',
      fr: '`routing` : par usage (`classify`, `compose`, `extract`, `general`, `analyzer`, `assistant`) le choix de l’administrateur {connectionId, model}, ou null. `effective` : ce qui sert chaque usage maintenant, avec `source` : `purpose` (le choix), `instanceDefault` (la connexion par défaut, son premier modèle autorisé ou le modèle par défaut de son fournisseur), `configurationOrder` (la plus ancienne connexion qui a un modèle) ; null quand aucun fournisseur ne peut servir.',
    },
  },
  putRouting: {
    summary: { en: 'Choose the AI routing', fr: 'Choisir le routage IA' },
    description: {
      en: '`routing`: per purpose, {connectionId, model (1-128)} sets the choice, null removes it, an absent purpose keeps its choice; another key is 400. An unknown connection is 404 `llm.connection_not_found` (`details.purpose`); a model outside the connection’s `enabledModels` is 400 `llm.model_not_allowed`. Answers 200 as the read. Audited (`llm.routing_updated`).',
      fr: '`routing` : par usage, {connectionId, model (1-128)} fixe le choix, null le retire, un usage absent garde son choix ; une autre clé donne 400. Une connexion inconnue donne 404 `llm.connection_not_found` (`details.purpose`) ; un modèle hors des `enabledModels` de la connexion donne 400 `llm.model_not_allowed`. Répond 200 comme la lecture. Journalisé (`llm.routing_updated`).',
    },
  },
};
