/**
 * The en/fr prose (summary and description) of rowsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'Query rows', fr: 'Interroger les lignes' },
    description: {
      en: 'Offset pagination: `offset` (0-100000), `limit` (1-500, default 100). `sort` a column key, `createdAt` (default) or `updatedAt`, `dir` `asc`/`desc` (empty cells last; numbers numerically, dates chronologically, text case-insensitively). `q` searches every cell (each word as a prefix). `filter` is a JSON array of up to 20 conditions `{column, op, value?, values?}` joined by `match` (`all`/`any`); a condition that does not fit its column is 400 `request.bad_request` with `details.index`. Answers `rows`, `total` (after `q` and `filter`) and `totalUnfiltered`. An offset at or beyond `total` (other than 0) is 400 `tables.page_out_of_range`.',
      fr: 'Pagination par décalage : `offset` (0-100000), `limit` (1-500, 100 par défaut). `sort` une clé de colonne, `createdAt` (par défaut) ou `updatedAt`, `dir` `asc`/`desc` (cellules vides en dernier ; nombres par valeur, dates par ordre chronologique, texte sans tenir compte de la casse). `q` cherche dans toutes les cellules (chaque mot comme préfixe). `filter` est un tableau JSON d’au plus 20 conditions `{column, op, value?, values?}` combinées selon `match` (`all`/`any`) ; une condition qui ne convient pas à sa colonne donne 400 `request.bad_request` avec `details.index`. Renvoie `rows`, `total` (après `q` et `filter`) et `totalUnfiltered`. Un décalage égal ou supérieur à `total` (autre que 0) donne 400 `tables.page_out_of_range`.',
    },
  },
  get: {
    summary: { en: 'Read a row', fr: 'Lire une ligne' },
    description: {
      en: 'One row of the table (by id or slug) with its cells and who created and last changed it.',
      fr: 'Une ligne de la table (par id ou par slug) avec ses cellules et qui l’a créée et modifiée en dernier.',
    },
  },
  create: {
    summary: { en: 'Add a row', fr: 'Ajouter une ligne' },
    description: {
      en: 'Every member. `cells` maps column keys to values of the column type; required columns need a value. A number column also takes a number written as text, as people write numbers and money ("87,40 €", "EUR 87.40", "1 234,56", "1,234.56"; the currency is dropped); a lone separator followed by three digits ("1,234") is ambiguous and refused (reason `ambiguous_number`). Cells that do not fit are 400 `tables.invalid_cells` with `details.problems` [{column, reason, message, value}], the message naming the first column, its value (at most 40 characters) and why; a key already used while `keyUnique` is 409 `tables.duplicate_key`; a table at its row ceiling is 409 `tables.limit_reached` (`details.limit` `maxRows`).',
      fr: 'Tout membre. `cells` associe des clés de colonnes à des valeurs du type de la colonne ; les colonnes obligatoires exigent une valeur. Une colonne nombre accepte aussi un nombre écrit en texte, comme on écrit nombres et montants (« 87,40 € », « EUR 87.40 », « 1 234,56 », « 1,234.56 » ; la devise est retirée) ; un séparateur seul suivi de trois chiffres (« 1,234 ») est ambigu et refusé (raison `ambiguous_number`). Des cellules qui ne conviennent pas donnent 400 `tables.invalid_cells` avec `details.problems` [{column, reason, message, value}], le message nommant la première colonne, sa valeur (40 caractères au plus) et la raison ; une clé déjà utilisée alors que `keyUnique` est actif donne 409 `tables.duplicate_key` ; une table à son plafond de lignes donne 409 `tables.limit_reached` (`details.limit` `maxRows`).',
    },
  },
  upsert: {
    summary: { en: 'Insert or update a row by its key', fr: 'Insérer ou modifier une ligne par sa clé' },
    description: {
      en: 'Every member. Finds the row whose key cell equals the key cell in `cells` (emails case-insensitively): updates it with the given cells (others unchanged, null clears), or inserts a new row. Answers `{row, created}`. Concurrent upserts of one key make one row. A table without key column is 409 `tables.key_column_missing`; an empty key cell is 400 `tables.invalid_cells`.',
      fr: 'Tout membre. Cherche la ligne dont la cellule clé vaut celle de `cells` (les e-mails sans tenir compte de la casse) : la modifie avec les cellules données (les autres restent, null vide), ou insère une nouvelle ligne. Renvoie `{row, created}`. Des upserts simultanés d’une même clé donnent une seule ligne. Une table sans colonne clé donne 409 `tables.key_column_missing` ; une cellule clé vide donne 400 `tables.invalid_cells`.',
    },
  },
  batch: {
    summary: { en: 'Write rows in a batch', fr: 'Écrire des lignes par lot' },
    description: {
      en: 'Every member. `operations`: 1 to 500 of `{op: "insert", cells}`, `{op: "update", id, cells}`, `{op: "upsert", cells}`, `{op: "delete", id}`, applied in order, all or nothing: the first operation that fails aborts the batch with its own error and `details.index`. Answers `results` [{op, id, row?, created?}] in the same order.',
      fr: 'Tout membre. `operations` : 1 à 500 parmi `{op: "insert", cells}`, `{op: "update", id, cells}`, `{op: "upsert", cells}`, `{op: "delete", id}`, appliquées dans l’ordre, tout ou rien : la première opération qui échoue annule le lot avec sa propre erreur et `details.index`. Renvoie `results` [{op, id, row?, created?}] dans le même ordre.',
    },
  },
  update: {
    summary: { en: 'Change a row', fr: 'Modifier une ligne' },
    description: {
      en: 'Every member. Partial: the given cells replace, the others stay; null (or "") clears a cell. Same errors as adding a row.',
      fr: 'Tout membre. Partiel : les cellules données remplacent, les autres restent ; null (ou "") vide une cellule. Mêmes erreurs que pour l’ajout.',
    },
  },
  delete: {
    summary: { en: 'Delete a row', fr: 'Supprimer une ligne' },
    description: {
      en: 'Every member. Deletes the row for good; answers it as it was.',
      fr: 'Tout membre. Supprime définitivement la ligne ; la renvoie telle qu’elle était.',
    },
  },
};
