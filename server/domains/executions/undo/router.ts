import { uuidParam } from '../../../core/http/schemas';
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { undoDocs as docs } from './docs';
import { bulkUndoInput, bulkUndoOutput, undoOutput, undoPreviewOutput } from './schemas';
import { previewUndo, undoRun, undoWorkflowRuns } from './service';

const tag = 'Executions';
const read = { kind: 'scope', scope: 'executions:read' } as const;
const write = { kind: 'scope', scope: 'executions:write' } as const;

export const undoRouter = router({
  preview: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/executions/{id}/undo/preview',
        access: read,
        tag,
        errors: ['execution.not_found', 'execution.not_undoable'],
        summary: docs.preview.summary,
        description: docs.preview.description,
      }),
    )
    .input(uuidParam)
    .output(undoPreviewOutput)
    .mutation(({ ctx, input }) => previewUndo(actorOf(ctx), input.id)),

  run: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/executions/{id}/undo',
        access: write,
        tag,
        errors: ['execution.not_found', 'execution.not_undoable', 'execution.undo_in_progress'],
        summary: docs.undo.summary,
        description: docs.undo.description,
      }),
    )
    .input(uuidParam)
    .output(undoOutput)
    .mutation(({ ctx, input }) => undoRun(actorOf(ctx), input.id, ctx.ip)),

  workflow: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/executions/undo',
        access: write,
        tag,
        errors: ['workflow.not_found', 'request.bad_request'],
        summary: docs.bulk.summary,
        description: docs.bulk.description,
      }),
    )
    .input(bulkUndoInput)
    .output(bulkUndoOutput)
    .mutation(({ ctx, input }) => {
      const { id, ...request } = input;
      return undoWorkflowRuns(actorOf(ctx), id, request, ctx.ip);
    }),
});
