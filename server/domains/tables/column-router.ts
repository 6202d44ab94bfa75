/** Column management routes (administrators), merged into the tables router. */
import { z } from 'zod';
import { route } from '../../trpc/meta';
import { actorOf, procedure } from '../../trpc/procedures';
import { addColumn, removeColumn, reorderColumns, updateColumn } from './column-service';
import { columnInput, columnTypes, tableOutput } from './schemas';

const tag = 'Tables';
const structure = { kind: 'scope', scope: 'tables:write', admin: true } as const;
const tableRef = z.string().min(1).max(100).describe('Table id or slug.');
const columnKey = z.string().min(1).max(60);

export const columnProcedures = {
  addColumn: procedure
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
    .input(z.object({ id: tableRef, column: columnInput, position: z.number().int().min(0).optional() }))
    .output(tableOutput)
    .mutation(({ ctx, input }) => addColumn(actorOf(ctx), input, ctx.ip)),

  updateColumn: procedure
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
    .input(
      z.object({
        id: tableRef,
        key: columnKey,
        label: z.string().trim().min(1).max(120).optional(),
        type: z.enum(columnTypes).optional(),
        isKey: z.boolean().optional(),
        required: z.boolean().optional(),
        options: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
        description: z.string().max(400).nullable().optional(),
        width: z.number().int().min(80).max(800).nullable().optional(),
      }),
    )
    .output(tableOutput)
    .mutation(({ ctx, input }) => updateColumn(actorOf(ctx), input, ctx.ip)),

  reorderColumns: procedure
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
    .input(z.object({ id: tableRef, keys: z.array(columnKey).min(1).max(500) }))
    .output(tableOutput)
    .mutation(({ ctx, input }) => reorderColumns(actorOf(ctx), input, ctx.ip)),

  removeColumn: procedure
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
    .input(z.object({ id: tableRef, key: columnKey }))
    .output(tableOutput)
    .mutation(({ ctx, input }) => removeColumn(actorOf(ctx), input, ctx.ip)),
};
