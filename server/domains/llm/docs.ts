/**
 * The en/fr prose (summary and description) of llmRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  defaults: {
    summary: { en: 'AI models per purpose', fr: 'Modèles IA par usage' },
    description: {
      en: 'For each purpose (`classify`, `compose`, `extract`, `general`, `analyzer`, `assistant`) the provider and model that serve it: the administrator’s routing choice, else the default connection, else the oldest connection; null when no provider can serve.',
      fr: 'Pour chaque usage (`classify`, `compose`, `extract`, `general`, `analyzer`, `assistant`) le fournisseur et le modèle qui le servent : le choix de routage de l’administrateur, sinon la connexion par défaut, sinon la plus ancienne connexion ; null quand aucun fournisseur ne peut servir.',
    },
  },
  connections: {
    summary: { en: 'List AI connections', fr: 'Lister les connexions IA' },
    description: {
      en: 'The instance’s AI connections in configuration order (oldest first), in the member form: `id`, `provider`, `label`, `isDefault`.',
      fr: 'Les connexions IA de l’instance dans l’ordre de configuration (les plus anciennes d’abord), sous la forme membre : `id`, `provider`, `label`, `isDefault`.',
    },
  },
  models: {
    summary: { en: 'Models of an AI connection', fr: 'Modèles d’une connexion IA' },
    description: {
      en: '`restricted: true`: the administrator enabled only these models, no other may be used. `restricted: false`: a list of the provider’s usual models to help typing (empty for a generic compatible server); any model may be named. Unknown id 404 `llm.connection_not_found`.',
      fr: '`restricted: true` : l’administrateur n’a autorisé que ces modèles, aucun autre ne peut servir. `restricted: false` : une liste des modèles courants du fournisseur pour aider la saisie (vide pour un serveur compatible générique) ; tout modèle peut être nommé. Identifiant inconnu 404 `llm.connection_not_found`.',
    },
  },
  assistantModels: {
    summary: { en: 'Models for the assistant', fr: 'Modèles pour l’assistant' },
    description: {
      en: '`default`: the provider and model serving the assistant when none is picked (`source`: `purpose` routing, `instanceDefault` or `configurationOrder`), null when no provider can serve. `options`: every model that may be picked, per connection in configuration order (its enabled models, else its provider’s usual ones), with `connectionId`, `connectionLabel` and `supportsTools`.',
      fr: '`default` : le fournisseur et le modèle qui servent l’assistant quand aucun n’est choisi (`source` : routage par usage `purpose`, `instanceDefault` ou `configurationOrder`), null quand aucun fournisseur ne peut servir. `options` : chaque modèle qui peut être choisi, par connexion dans l’ordre de configuration (ses modèles autorisés, sinon les modèles courants de son fournisseur), avec `connectionId`, `connectionLabel` et `supportsTools`.',
    },
  },
};
