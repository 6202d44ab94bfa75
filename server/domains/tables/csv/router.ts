/** CSV import routes (every member may write rows), nested in the tables router as `tables.csv`. */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { importInput, importOutput, previewImportInput, previewImportOutput } from './schemas';
import { importCsv, previewImport } from './service';
import { docs } from './docs';

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
        summary: docs.preview.summary,
        description: docs.preview.description,
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
        summary: docs.import.summary,
        description: docs.import.description,
      }),
    )
    .input(importInput)
    .output(importOutput)
    .mutation(({ ctx, input }) => importCsv(actorOf(ctx), input, ctx.ip)),
});
