/** CSV import routes (every member may write rows), nested in the tables router as `tables.csv`. */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { importInput, importOutput, previewImportInput, previewImportOutput } from './schemas';
import { importCsv, previewImport } from './service';

const tag = 'Tables';
const write = { kind: 'scope', scope: 'tables:write' } as const;
export const csvRouter = router({
  preview: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables/{id}/import/preview',
        access: write,
        errors: ['tables.not_found'],
        tag,
        summary: { en: 'Preview a CSV import', fr: 'Prévisualiser un import CSV' },
        description: {
          en: 'Reads the file without writing anything: headers, the first 20 lines, the line count, and a suggested mapping of each header to a column (by key or label), null when none fits.',
          fr: 'Lit le fichier sans rien écrire : en-têtes, 20 premières lignes, nombre de lignes, et une correspondance proposée de chaque en-tête vers une colonne (par clé ou libellé), null si aucune ne convient.',
        },
      }),
    )
    .input(previewImportInput)
    .output(previewImportOutput)
    .mutation(({ input }) => previewImport(input.id, input.csv)),

  import: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables/{id}/import',
        access: write,
        errors: ['tables.not_found', 'tables.import_rejected', 'tables.key_column_missing', 'tables.limit_reached'],
        tag,
        summary: { en: 'Import a CSV file', fr: 'Importer un fichier CSV' },
        description: {
          en: '`mapping` maps headers to column keys (null skips a header); `mode` `insert` adds rows, `upsert` updates the row with the same key or adds one. Every line is checked first: lines that do not fit are listed with their line number and reasons, and nothing is written (422 `tables.import_rejected`) unless `skipInvalid` is true, in which case the valid lines are imported. One transaction: never half applied.',
          fr: '`mapping` associe les en-têtes aux clés de colonnes (null ignore un en-tête) ; `mode` `insert` ajoute des lignes, `upsert` met à jour la ligne de même clé ou en ajoute une. Chaque ligne est d’abord vérifiée : celles qui ne conviennent pas sont listées avec leur numéro et leurs raisons, et rien n’est écrit (422 `tables.import_rejected`) sauf si `skipInvalid` vaut true, auquel cas les lignes valides sont importées. Une seule transaction : jamais d’import à moitié.',
        },
      }),
    )
    .input(importInput)
    .output(importOutput)
    .mutation(({ ctx, input }) => importCsv(actorOf(ctx), input, ctx.ip)),
});
