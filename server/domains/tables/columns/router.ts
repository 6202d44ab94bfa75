/** Column management routes (administrators), nested in the tables router as `tables.columns`. */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { tableOutput } from '../schemas';
import { addColumnInput, columnRefInput, reorderColumnsInput, updateColumnInput } from './schemas';
import { addColumn, removeColumn, reorderColumns, updateColumn } from './service';

const tag = 'Tables';
const structure = { kind: 'scope', scope: 'tables:write', admin: true } as const;
export const columnsRouter = router({
  add: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables/{id}/columns',
        access: structure,
        status: 201,
        errors: ['tables.not_found', 'tables.duplicate_column', 'tables.limit_reached', 'tables.cells_incompatible', 'tables.duplicate_key'],
        tag,
        summary: { en: 'Add a column', fr: 'Ajouter une colonne' },
        description: {
          en: 'Administrators. Adds `column` (only `label` required) at `position` (default: last). A new key column becomes the only key. A required column cannot be added to a table that has rows.',
          fr: 'Administrateurs. Ajoute `column` (seul `label` est requis) à la `position` donnée (par défaut : à la fin). Une nouvelle colonne clé devient la seule clé. Une colonne obligatoire ne peut pas être ajoutée à une table qui a des lignes.',
        },
      }),
    )
    .input(addColumnInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => addColumn(actorOf(ctx), input, ctx.ip)),

  update: procedure
    .meta(
      route({
        method: 'PATCH',
        path: '/api/v1/tables/{id}/columns/{key}',
        access: structure,
        errors: ['tables.not_found', 'tables.column_not_found', 'tables.cells_incompatible', 'tables.duplicate_key'],
        tag,
        summary: { en: 'Change a column', fr: 'Modifier une colonne' },
        description: {
          en: 'Administrators. Partial: `label`, `type`, `isKey`, `required`, `options`, `description`, `width`. Existing cells are converted to a new type or options; when some do not fit (or a newly required column is empty) nothing changes and 409 `tables.cells_incompatible` lists the rows (`details.rows`, `details.count`).',
          fr: 'Administrateurs. Partiel : `label`, `type`, `isKey`, `required`, `options`, `description`, `width`. Les cellules existantes sont converties vers le nouveau type ou les nouvelles options ; si certaines ne conviennent pas (ou si une colonne devenue obligatoire est vide), rien ne change et 409 `tables.cells_incompatible` liste les lignes (`details.rows`, `details.count`).',
        },
      }),
    )
    .input(updateColumnInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => updateColumn(actorOf(ctx), input, ctx.ip)),

  reorder: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables/{id}/columns/reorder',
        access: structure,
        errors: ['tables.not_found'],
        tag,
        summary: { en: 'Reorder columns', fr: 'Réordonner les colonnes' },
        description: {
          en: 'Administrators. `keys` lists every column key exactly once, in the new order.',
          fr: 'Administrateurs. `keys` liste chaque clé de colonne exactement une fois, dans le nouvel ordre.',
        },
      }),
    )
    .input(reorderColumnsInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => reorderColumns(actorOf(ctx), input, ctx.ip)),

  remove: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/tables/{id}/columns/{key}',
        access: structure,
        errors: ['tables.not_found', 'tables.column_not_found'],
        tag,
        summary: { en: 'Remove a column', fr: 'Supprimer une colonne' },
        description: {
          en: 'Administrators. Removes the column and its cells from every row.',
          fr: 'Administrateurs. Supprime la colonne et ses cellules de toutes les lignes.',
        },
      }),
    )
    .input(columnRefInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => removeColumn(actorOf(ctx), input, ctx.ip)),
});
