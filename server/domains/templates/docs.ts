/**
 * The en/fr prose (summary and description) of templatesRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { withGraphScopeRule } from '../workflows';

const graphRules = {
  en: 'The graph is validated like a workflow draft (400 `workflow.invalid_graph` with `details.issues`) and stored without ids; `nodeTypes` (`type@version`) and `requiresProviders` (`mail` for a mail trigger or node, `http` for the HTTP request node) are derived from it, never taken from the request.',
  fr: 'Le graphe est validé comme le brouillon d’un workflow (400 `workflow.invalid_graph` avec `details.issues`) et enregistré sans identifiants ; `nodeTypes` (`type@version`) et `requiresProviders` (`mail` pour un déclencheur ou un nœud de courrier, `http` pour le nœud de requête HTTP) en sont tirés, jamais pris dans la requête.',
};

export const docs = {
  list: {
    summary: { en: 'List the templates', fr: 'Lister les modèles' },
    description: {
      en: 'The enabled templates, by name, whole (no pagination); an administrator also sees the disabled ones (`enabled: false`).',
      fr: 'Les modèles activés, par nom, en entier (sans pagination) ; un administrateur voit aussi ceux qui sont désactivés (`enabled: false`).',
    },
  },
  get: {
    summary: { en: 'Read a template', fr: 'Lire un modèle' },
    description: {
      en: 'The template and its `graph` (a workflow graph whose `id` and `workflowId` are the template’s id). For a member a disabled template is the same 404 `templates.not_found` as an unknown one; an administrator sees it.',
      fr: 'Le modèle et son `graph` (un graphe de workflow dont `id` et `workflowId` sont l’identifiant du modèle). Pour un membre, un modèle désactivé donne le même 404 `templates.not_found` qu’un modèle inconnu ; un administrateur le voit.',
    },
  },
  install: {
    summary: { en: 'Install a template', fr: 'Installer un modèle' },
    description: withGraphScopeRule({
      en: 'A new draft workflow of yours with the template’s graph (validated as on creation; publishing is a separate step), named `name` (1-200, optional; default the template’s name); the template’s install count grows by one. A template using a node type the instance forbids to members (`FORBIDDEN_NODE_TYPES`) is 409 `templates.forbidden_node` with those types in `details.nodeTypes`; a disabled template is 404 `templates.not_found` for a member. A template that uses shared tables lists them in `tables` (columns and types); the request’s `tables` says, for each (`slug`), to create it (`use: "create"`, administrators only: otherwise 403 `auth.forbidden`) or to use an existing table (`use: "existing"`, `tableId`: id or slug; unknown: 404 `tables.not_found`); an existing table must have each of the template’s columns with a type that fits, otherwise 409 `templates.table_mismatch` whose message names the column (`details`: `table`, `column`, `reason` `missing`|`wrong_type`|`not_key`, `expected`, `actual`). The template’s steps then name the chosen table; a refusal leaves no table created.',
      fr: 'Un nouveau brouillon de workflow à vous avec le graphe du modèle (validé comme à la création ; la publication est une étape distincte), nommé `name` (1-200, facultatif ; par défaut le nom du modèle) ; le nombre d’installations du modèle augmente d’un. Un modèle utilisant un type de nœud interdit aux membres par l’instance (`FORBIDDEN_NODE_TYPES`) donne 409 `templates.forbidden_node` avec ces types dans `details.nodeTypes` ; un modèle désactivé donne 404 `templates.not_found` pour un membre. Un modèle qui utilise des tables partagées les liste dans `tables` (colonnes et types) ; `tables` de la requête dit, pour chacune (`slug`), de la créer (`use: "create"`, administrateurs seulement : sinon 403 `auth.forbidden`) ou d’utiliser une table existante (`use: "existing"`, `tableId` : identifiant ou slug ; inconnue : 404 `tables.not_found`) ; une table existante doit avoir chaque colonne du modèle avec un type qui convient, sinon 409 `templates.table_mismatch` dont le message nomme la colonne (`details` : `table`, `column`, `reason` `missing`|`wrong_type`|`not_key`, `expected`, `actual`). Les étapes du modèle désignent ensuite la table choisie ; un refus ne laisse aucune table créée.',
    }),
  },
  adminCreate: {
    summary: { en: 'Create a template', fr: 'Créer un modèle' },
    description: {
      en: `Administrators. \`name\` (1-200), \`description\` (≤ 2,000, default empty), \`category\` (one of the categories or null), \`enabled\` (default true), and either \`workflowId\` (the draft graph of one of your workflows; another’s is 404 \`workflow.not_found\`) or \`graph\`. ${graphRules.en} Audited as \`template.created\`.`,
      fr: `Administrateurs. \`name\` (1-200), \`description\` (≤ 2 000, vide par défaut), \`category\` (une des catégories ou null), \`enabled\` (true par défaut), et soit \`workflowId\` (le graphe brouillon d’un de vos workflows ; celui d’un autre donne 404 \`workflow.not_found\`), soit \`graph\`. ${graphRules.fr} Journalisé dans l’audit comme \`template.created\`.`,
    },
  },
  adminUpdate: {
    summary: { en: 'Change a template', fr: 'Modifier un modèle' },
    description: {
      en: `Administrators. Partial: \`name\`, \`description\`, \`category\`, \`graph\`. ${graphRules.en} A starter template (shipped with the instance) is 409 \`templates.read_only\`. Audited as \`template.updated\`.`,
      fr: `Administrateurs. Partiel : \`name\`, \`description\`, \`category\`, \`graph\`. ${graphRules.fr} Un modèle de démarrage (livré avec l’instance) donne 409 \`templates.read_only\`. Journalisé dans l’audit comme \`template.updated\`.`,
    },
  },
  adminEnable: {
    summary: { en: 'Enable a template', fr: 'Activer un modèle' },
    description: {
      en: 'Administrators. Members see and install the template again. Idempotent: an enabled template is answered as it is. Audited as `template.enabled` on a change.',
      fr: 'Administrateurs. Les membres voient et installent de nouveau le modèle. Idempotent : un modèle déjà activé est renvoyé tel quel. Journalisé dans l’audit comme `template.enabled` lors d’un changement.',
    },
  },
  adminDisable: {
    summary: { en: 'Disable a template', fr: 'Désactiver un modèle' },
    description: {
      en: 'Administrators. Members no longer see nor install the template (404); workflows installed from it stay. Starter templates too. Idempotent: a disabled template is answered as it is. Audited as `template.disabled` on a change.',
      fr: 'Administrateurs. Les membres ne voient plus le modèle et ne peuvent plus l’installer (404) ; les workflows installés à partir de lui restent. Les modèles de démarrage aussi. Idempotent : un modèle déjà désactivé est renvoyé tel quel. Journalisé dans l’audit comme `template.disabled` lors d’un changement.',
    },
  },
  adminDelete: {
    summary: { en: 'Delete a template', fr: 'Supprimer un modèle' },
    description: {
      en: 'Administrators. Answers the template as it was; workflows installed from it stay. A starter template is 409 `templates.read_only` (disable it instead). Audited as `template.deleted`.',
      fr: 'Administrateurs. Renvoie le modèle tel qu’il était ; les workflows installés à partir de lui restent. Un modèle de démarrage donne 409 `templates.read_only` (désactivez-le plutôt). Journalisé dans l’audit comme `template.deleted`.',
    },
  },
};
