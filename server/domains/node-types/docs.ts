/**
 * The en/fr prose (summary and description) of nodeTypesRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'List the node types', fr: 'Lister les types de nœuds' },
    description: {
      en: 'Every node type a workflow graph may use (newest version of each): label and description in `lang` (en or fr, default en), category, inputs, outputs (null when they depend on the parameters), effect kind, effective retry defaults, trigger kind, mailbox parameters, the API-key scopes its use implies (`scopes`; `parameterScopes` for a parameter in use, such as `credentialId` → `connections:read`; `workflowParams`, whose called workflows’ scopes count too: a graph written or run through a key needs them all, else 403 `api_key.scope_missing`), the JSON Schema of the parameters and whether the type is `forbidden` to the caller (`FORBIDDEN_NODE_TYPES`, members only). A parameter value may also be an expression `{{ … }}` (JSONata).',
      fr: 'Chaque type de nœud qu’un graphe de workflow peut utiliser (la version la plus récente de chacun) : libellé et description dans `lang` (en ou fr, en par défaut), catégorie, entrées, sorties (null quand elles dépendent des paramètres), nature des effets, reprises par défaut effectives, type de déclencheur, paramètres de boîte mail, portées de clé d’API qu’implique son usage (`scopes` ; `parameterScopes` pour un paramètre utilisé, comme `credentialId` → `connections:read` ; `workflowParams`, dont les workflows appelés ajoutent leurs portées : un graphe écrit ou exécuté avec une clé les exige toutes, sinon 403 `api_key.scope_missing`), schéma JSON des paramètres et si le type est interdit à l’appelant (`forbidden` ; `FORBIDDEN_NODE_TYPES`, membres seulement). Une valeur de paramètre peut aussi être une expression `{{ … }}` (JSONata).',
    },
  },
};
