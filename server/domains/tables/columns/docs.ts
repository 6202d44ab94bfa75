/**
 * The en/fr prose (summary and description) of columnsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  add: {
    summary: { en: 'Add a column', fr: 'Ajouter une colonne' },
    description: {
      en: 'Administrators. Adds `column` (only `label` required) at `position` (default: last). A new key column becomes the only key. A required column cannot be added to a table that has rows.',
      fr: 'Administrateurs. Ajoute `column` (seul `label` est requis) à la `position` donnée (par défaut : à la fin). Une nouvelle colonne clé devient la seule clé. Une colonne obligatoire ne peut pas être ajoutée à une table qui a des lignes.',
    },
  },
  update: {
    summary: { en: 'Change a column', fr: 'Modifier une colonne' },
    description: {
      en: 'Administrators. Partial: `label`, `type`, `isKey`, `required`, `options`, `description`, `width`. Existing cells are converted to a new type or options; when some do not fit (or a newly required column is empty) nothing changes and 409 `tables.cells_incompatible` lists the rows (`details.rows`, `details.count`).',
      fr: 'Administrateurs. Partiel : `label`, `type`, `isKey`, `required`, `options`, `description`, `width`. Les cellules existantes sont converties vers le nouveau type ou les nouvelles options ; si certaines ne conviennent pas (ou si une colonne devenue obligatoire est vide), rien ne change et 409 `tables.cells_incompatible` liste les lignes (`details.rows`, `details.count`).',
    },
  },
  reorder: {
    summary: { en: 'Reorder columns', fr: 'Réordonner les colonnes' },
    description: {
      en: 'Administrators. `keys` lists every column key exactly once, in the new order.',
      fr: 'Administrateurs. `keys` liste chaque clé de colonne exactement une fois, dans le nouvel ordre.',
    },
  },
  remove: {
    summary: { en: 'Remove a column', fr: 'Supprimer une colonne' },
    description: {
      en: 'Administrators. Removes the column and its cells from every row.',
      fr: 'Administrateurs. Supprime la colonne et ses cellules de toutes les lignes.',
    },
  },
};
