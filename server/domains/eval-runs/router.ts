/** The evaluation runs' routes (ours, in the spec's style; the spec names `GET /api/v1/eval-runs/{id}`). */
import type { ErrorCode } from '../../core/errors/catalogue';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { evalCasePageOutput, evalRunIdInput, evalRunListOutput, evalRunOutput, listCasesInput, listEvalRunsInput, startEvalInput } from './schemas';
import { cancelEvalRun, getEvalRun, listEvalCases, listEvalRuns, startEvalRun } from './service';
import { docs } from './docs';

const tag = 'Evaluation runs';
const read = { kind: 'scope', scope: 'workflows:read' } as const;
const write = { kind: 'scope', scope: 'workflows:write' } as const;
const runNotFound: ErrorCode[] = ['eval.not_found'];

export const evalRunsRouter = router({
  start: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/eval-runs',
        access: write,
        throttle: { bucket: 'eval_runs' },
        idempotent: true,
        status: 202,
        errors: [
          'workflow.not_found',
          'workflow.version_not_found',
          'workflow.invalid_graph',
          'workflow.not_published',
          'workflow.trigger_data_too_large',
          'eval.no_cases',
          'eval.source_unsupported',
          'eval.already_running',
          'llm.budget_exceeded',
        ],
        tag,
        summary: docs.start.summary,
        description: docs.start.description,
      }),
    )
    .input(startEvalInput)
    .output(evalRunOutput)
    .mutation(({ ctx, input }) => startEvalRun(actorOf(ctx), input)),

  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/workflows/{id}/eval-runs',
        access: read,
        errors: ['workflow.not_found'],
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listEvalRunsInput)
    .output(evalRunListOutput)
    .query(({ ctx, input }) => listEvalRuns(actorOf(ctx), input)),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/eval-runs/{id}',
        access: read,
        errors: runNotFound,
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(evalRunIdInput)
    .output(evalRunOutput)
    .query(({ ctx, input }) => getEvalRun(actorOf(ctx), input.id)),

  cases: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/eval-runs/{id}/cases',
        access: read,
        errors: runNotFound,
        tag,
        summary: docs.cases.summary,
        description: docs.cases.description,
      }),
    )
    .input(listCasesInput)
    .output(evalCasePageOutput)
    .query(({ ctx, input }) => listEvalCases(actorOf(ctx), input)),

  cancel: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/eval-runs/{id}/cancel',
        access: write,
        errors: [...runNotFound, 'eval.not_cancellable'],
        tag,
        summary: docs.cancel.summary,
        description: docs.cancel.description,
      }),
    )
    .input(evalRunIdInput)
    .output(evalRunOutput)
    .mutation(({ ctx, input }) => cancelEvalRun(actorOf(ctx), input.id)),
});
