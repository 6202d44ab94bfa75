/** Column management routes (administrators), nested in the tables router as `tables.columns`. */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { tableOutput } from '../schemas';
import { addColumnInput, columnRefInput, reorderColumnsInput, updateColumnInput } from './schemas';
import { addColumn, removeColumn, reorderColumns, updateColumn } from './service';
import { docs } from './docs';

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
        summary: docs.add.summary,
        description: docs.add.description,
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
        summary: docs.update.summary,
        description: docs.update.description,
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
        summary: docs.reorder.summary,
        description: docs.reorder.description,
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
        summary: docs.remove.summary,
        description: docs.remove.description,
      }),
    )
    .input(columnRefInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => removeColumn(actorOf(ctx), input, ctx.ip)),
});
