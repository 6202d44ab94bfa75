/**
 * The en/fr prose (summary and description) of csvRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  preview: {
    summary: { en: 'Preview a CSV import', fr: 'Prévisualiser un import CSV' },
    description: {
      en: 'Reads the file without writing anything: headers, the first 20 lines, the line count, and a suggested mapping of each header to a column (by key or label), null when none fits.',
      fr: 'Lit le fichier sans rien écrire : en-têtes, 20 premières lignes, nombre de lignes, et une correspondance proposée de chaque en-tête vers une colonne (par clé ou libellé), null si aucune ne convient.',
    },
  },
  import: {
    summary: { en: 'Import a CSV file', fr: 'Importer un fichier CSV' },
    description: {
      en: '`mapping` maps headers to column keys (null skips a header); `mode` `insert` adds rows, `upsert` updates the row with the same key or adds one. Every line is checked first: lines that do not fit are listed with their line number and reasons, and nothing is written (422 `tables.import_rejected`) unless `skipInvalid` is true, in which case the valid lines are imported. One transaction: never half applied.',
      fr: '`mapping` associe les en-têtes aux clés de colonnes (null ignore un en-tête) ; `mode` `insert` ajoute des lignes, `upsert` met à jour la ligne de même clé ou en ajoute une. Chaque ligne est d’abord vérifiée : celles qui ne conviennent pas sont listées avec leur numéro et leurs raisons, et rien n’est écrit (422 `tables.import_rejected`) sauf si `skipInvalid` vaut true, auquel cas les lignes valides sont importées. Une seule transaction : jamais d’import à moitié.',
    },
  },
};
