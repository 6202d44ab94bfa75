/**
 * The en/fr prose (summary and description) of tablesRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'List tables', fr: 'Lister les tables' },
    description: {
      en: 'Every shared table of the team with its columns and row count, by name.',
      fr: 'Toutes les tables partagées de l’équipe avec leurs colonnes et leur nombre de lignes, par nom.',
    },
  },
  create: {
    summary: { en: 'Create a table', fr: 'Créer une table' },
    description: {
      en: 'Administrators. `name` (1-120); `slug` derived from the name and made unique when absent; `columns` (only `label` required; `key` derived from it; type `text` by default; at most one key column; `select` needs options); `keyUnique` defaults to true. Reaching an instance ceiling is 409 `tables.limit_reached` with `details.limit`.',
      fr: 'Administrateurs. `name` (1-120) ; `slug` tiré du nom et rendu unique s’il est absent ; `columns` (seul `label` est requis ; `key` en est tiré ; type `text` par défaut ; une seule colonne clé ; `select` exige des options) ; `keyUnique` vaut true par défaut. Atteindre un plafond de l’instance donne 409 `tables.limit_reached` avec `details.limit`.',
    },
  },
  limits: {
    summary: { en: 'Table ceilings of the instance', fr: 'Plafonds des tables de l’instance' },
    description: {
      en: 'Maximum number of tables, columns per table, rows per table and characters per cell.',
      fr: 'Nombre maximal de tables, de colonnes par table, de lignes par table et de caractères par cellule.',
    },
  },
  get: {
    summary: { en: 'Read a table’s structure', fr: 'Lire la structure d’une table' },
    description: {
      en: 'The table by id or slug: structure only (rows have their own route).',
      fr: 'La table par id ou par slug : structure seulement (les lignes ont leur propre route).',
    },
  },
  patch: {
    summary: { en: 'Change a table', fr: 'Modifier une table' },
    description: {
      en: 'Administrators. Partial: `name`, `slug`, `description`, `keyUnique`. The table by id or slug.',
      fr: 'Administrateurs. Partiel : `name`, `slug`, `description`, `keyUnique`. La table par id ou par slug.',
    },
  },
  delete: {
    summary: { en: 'Delete a table', fr: 'Supprimer une table' },
    description: {
      en: 'Administrators. Deletes the table and its rows for good; answers the table as it was.',
      fr: 'Administrateurs. Supprime définitivement la table et ses lignes ; renvoie la table telle qu’elle était.',
    },
  },
};
