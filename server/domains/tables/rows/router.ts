/** Row routes: every member reads and writes rows (structure stays with administrators). */
import { z } from 'zod';
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import {
  batchInput,
  batchOutput,
  cellsInput,
  listRowsInput,
  listRowsOutput,
  rowOutput,
  rowRef,
  rowSchema,
  tableRef,
} from './schemas';
import { batchRows, deleteRow, getRow, insertRow, listRows, updateRow, upsertRow } from './service';
import { memberWriteContext } from './writer';
import { docs } from './docs';

const tag = 'Tables';
const read = { kind: 'scope', scope: 'tables:read' } as const;
const write = { kind: 'scope', scope: 'tables:write' } as const;
const rowInput = z.object({ id: tableRef, rowId: rowRef });
const writeErrors = ['tables.not_found', 'tables.invalid_cells', 'tables.duplicate_key'] as const;

export const rowsRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables/{id}/rows',
        access: read,
        errors: ['tables.not_found', 'tables.page_out_of_range'],
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listRowsInput)
    .output(listRowsOutput)
    .query(({ input }) => listRows(input)),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables/{id}/rows/{rowId}',
        access: read,
        errors: ['tables.not_found', 'tables.row_not_found'],
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(rowInput)
    .output(rowOutput)
    .query(({ input }) => getRow(input.id, input.rowId)),

  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables/{id}/rows',
        access: write,
        status: 201,
        errors: [...writeErrors, 'tables.limit_reached'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(z.object({ id: tableRef, cells: cellsInput }))
    .output(rowOutput)
    .mutation(({ ctx, input }) => insertRow(input.id, input.cells, memberWriteContext(actorOf(ctx), ctx.ip))),

  upsert: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables/{id}/rows/upsert',
        access: write,
        errors: [...writeErrors, 'tables.key_column_missing', 'tables.limit_reached'],
        tag,
        summary: docs.upsert.summary,
        description: docs.upsert.description,
      }),
    )
    .input(z.object({ id: tableRef, cells: cellsInput }))
    .output(z.object({ row: rowSchema, created: z.boolean() }))
    .mutation(({ ctx, input }) => upsertRow(input.id, input.cells, memberWriteContext(actorOf(ctx), ctx.ip))),

  batch: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables/{id}/rows/batch',
        access: write,
        errors: [...writeErrors, 'tables.row_not_found', 'tables.key_column_missing', 'tables.limit_reached'],
        tag,
        summary: docs.batch.summary,
        description: docs.batch.description,
      }),
    )
    .input(batchInput)
    .output(batchOutput)
    .mutation(({ ctx, input }) => batchRows(input.id, input.operations, memberWriteContext(actorOf(ctx), ctx.ip))),

  update: procedure
    .meta(
      route({
        method: 'PATCH',
        path: '/api/v1/tables/{id}/rows/{rowId}',
        access: write,
        errors: [...writeErrors, 'tables.row_not_found'],
        tag,
        summary: docs.update.summary,
        description: docs.update.description,
      }),
    )
    .input(z.object({ id: tableRef, rowId: rowRef, cells: cellsInput }))
    .output(rowOutput)
    .mutation(({ ctx, input }) => updateRow(input.id, input.rowId, input.cells, memberWriteContext(actorOf(ctx), ctx.ip))),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/tables/{id}/rows/{rowId}',
        access: write,
        errors: ['tables.not_found', 'tables.row_not_found'],
        tag,
        summary: docs.delete.summary,
        description: docs.delete.description,
      }),
    )
    .input(rowInput)
    .output(rowOutput)
    .mutation(({ ctx, input }) => deleteRow(input.id, input.rowId, memberWriteContext(actorOf(ctx), ctx.ip))),
});
