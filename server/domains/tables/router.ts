/**
 * The tables domain's routes: the tables themselves here, their rows, columns and CSV files in their
 * own folders, composed by nesting only (`tables.rows.list`, `tables.columns.add`, `tables.csv.import`).
 */
import { z } from 'zod';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { columnsRouter } from './columns/router';
import { csvRouter } from './csv/router';
import { rowsRouter } from './rows/router';
import { createTableInput, limitsOutput, patchTableInput, tableOutput, tableRefInput, tableSchema } from './schemas';
import { createTable, deleteTable, getTable, listTables, patchTable, tableLimits } from './service';
import { docs } from './docs';

const tag = 'Tables';
const read = { kind: 'scope', scope: 'tables:read' } as const;
const structure = { kind: 'scope', scope: 'tables:write', admin: true } as const;

export const tablesRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(z.object({ tables: z.array(tableSchema) }))
    .query(() => listTables()),

  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables',
        access: structure,
        idempotent: true,
        status: 201,
        errors: ['tables.limit_reached', 'tables.duplicate_slug', 'tables.duplicate_column'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(createTableInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => createTable(actorOf(ctx), input, ctx.ip)),

  limits: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables/limits',
        access: read,
        tag,
        summary: docs.limits.summary,
        description: docs.limits.description,
      }),
    )
    .output(limitsOutput)
    .query(() => ({ limits: tableLimits() })),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables/{id}',
        access: read,
        errors: ['tables.not_found'],
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(tableRefInput)
    .output(tableOutput)
    .query(({ input }) => getTable(input.id)),

  patch: procedure
    .meta(
      route({
        method: 'PATCH',
        path: '/api/v1/tables/{id}',
        access: structure,
        errors: ['tables.not_found', 'tables.duplicate_slug'],
        tag,
        summary: docs.patch.summary,
        description: docs.patch.description,
      }),
    )
    .input(patchTableInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => patchTable(actorOf(ctx), input, ctx.ip)),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/tables/{id}',
        access: structure,
        errors: ['tables.not_found'],
        tag,
        summary: docs.delete.summary,
        description: docs.delete.description,
      }),
    )
    .input(tableRefInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => deleteTable(actorOf(ctx), input.id, ctx.ip)),

  rows: rowsRouter,
  columns: columnsRouter,
  csv: csvRouter,
});
