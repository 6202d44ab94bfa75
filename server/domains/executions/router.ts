import type { ErrorCode } from '../../core/errors/catalogue';
import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  acknowledgeOutput,
  cancelListInput,
  cancelListOutput,
  cancelOneOutput,
  cancelWorkflowInput,
  cancelWorkflowOutput,
  executionDetailSchema,
  executionPageOutput,
  incidentPageOutput,
  listExecutionsInput,
  listIncidentsInput,
  listWaitingInput,
  replayInput,
  replayOutput,
  retryFailedInput,
  retryFailedOutput,
  summaryInput,
  summaryOutput,
  waitingPageOutput,
} from './schemas';
import {
  acknowledgeIncident,
  cancelList,
  cancelOne,
  cancelWorkflow,
  getExecution,
  listExecutions,
  listIncidents,
  listWaiting,
  replay,
  retryFailedRuns,
  summary,
} from './service';
import { docs } from './docs';
import { undoRouter } from './undo/router';

const tag = 'Executions';
const read = { kind: 'scope', scope: 'executions:read' } as const;
const write = { kind: 'scope', scope: 'executions:write' } as const;
const notificationsRead = { kind: 'scope', scope: 'notifications:read' } as const;
const notificationsWrite = { kind: 'scope', scope: 'notifications:write' } as const;
const badRequest: ErrorCode[] = ['request.bad_request'];

export const executionsRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/executions',
        access: read,
        tag,
        errors: badRequest,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listExecutionsInput)
    .output(executionPageOutput)
    .query(({ ctx, input }) => listExecutions(actorOf(ctx), input)),

  waiting: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/executions/waiting',
        access: read,
        tag,
        errors: badRequest,
        summary: docs.waiting.summary,
        description: docs.waiting.description,
      }),
    )
    .input(listWaitingInput)
    .output(waitingPageOutput)
    .query(({ ctx, input }) => listWaiting(actorOf(ctx), input)),

  summary: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/executions/summary',
        access: notificationsRead,
        tag,
        errors: badRequest,
        summary: docs.summary.summary,
        description: docs.summary.description,
      }),
    )
    .input(summaryInput)
    .output(summaryOutput)
    .query(({ ctx, input }) => summary(actorOf(ctx), input)),

  incidents: router({
    list: procedure
      .meta(
        route({
          method: 'GET',
          path: '/api/v1/executions/incidents',
          access: notificationsRead,
          tag,
          errors: badRequest,
          summary: docs.incidents.list.summary,
          description: docs.incidents.list.description,
        }),
      )
      .input(listIncidentsInput)
      .output(incidentPageOutput)
      .query(({ ctx, input }) => listIncidents(actorOf(ctx), input)),

    acknowledge: procedure
      .meta(
        route({
          method: 'POST',
          path: '/api/v1/executions/incidents/{id}/acknowledge',
          access: notificationsWrite,
          tag,
          errors: ['incident.not_found'],
          summary: docs.incidents.acknowledge.summary,
          description: docs.incidents.acknowledge.description,
        }),
      )
      .input(uuidParam)
      .output(acknowledgeOutput)
      .mutation(({ ctx, input }) => acknowledgeIncident(actorOf(ctx), input.id)),
  }),

  cancelList: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/executions/cancel',
        access: write,
        tag,
        errors: badRequest,
        summary: docs.cancelList.summary,
        description: docs.cancelList.description,
      }),
    )
    .input(cancelListInput)
    .output(cancelListOutput)
    .mutation(({ ctx, input }) => cancelList(actorOf(ctx), input.ids)),

  detail: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/executions/{id}',
        access: read,
        tag,
        errors: ['execution.not_found'],
        summary: docs.detail.summary,
        description: docs.detail.description,
      }),
    )
    .input(uuidParam)
    .output(executionDetailSchema)
    .query(({ ctx, input }) => getExecution(actorOf(ctx), input.id)),

  cancel: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/executions/{id}/cancel',
        access: write,
        tag,
        errors: ['execution.not_found', 'execution.not_cancellable'],
        summary: docs.cancel.summary,
        description: docs.cancel.description,
      }),
    )
    .input(uuidParam)
    .output(cancelOneOutput)
    .mutation(({ ctx, input }) => cancelOne(actorOf(ctx), input.id)),

  replay: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/executions/{id}/replay',
        access: write,
        tag,
        status: 202,
        alsoStatus: 200,
        errors: ['execution.not_found', 'execution.not_replayable'],
        summary: docs.replay.summary,
        description: docs.replay.description,
      }),
    )
    .input(replayInput)
    .output(replayOutput)
    .mutation(async ({ ctx, input }) => {
      const { id, ...request } = input;
      const answer = await replay(actorOf(ctx), id, request);
      if ('dryRun' in answer) ctx.answer.successStatus = 200;
      return answer;
    }),

  cancelWorkflow: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/executions/cancel',
        access: write,
        tag,
        errors: ['workflow.not_found'],
        summary: docs.cancelWorkflow.summary,
        description: docs.cancelWorkflow.description,
      }),
    )
    .input(cancelWorkflowInput)
    .output(cancelWorkflowOutput)
    .mutation(({ ctx, input }) => cancelWorkflow(actorOf(ctx), input.id, input.limit)),

  undo: undoRouter,

  retryFailed: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/executions/retry-failed',
        access: write,
        tag,
        errors: ['workflow.not_found'],
        summary: docs.retryFailed.summary,
        description: docs.retryFailed.description,
      }),
    )
    .input(retryFailedInput)
    .output(retryFailedOutput)
    .mutation(({ ctx, input }) => retryFailedRuns(actorOf(ctx), input.id, input)),
});
