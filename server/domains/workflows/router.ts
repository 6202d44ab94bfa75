/** The workflows domain's routes (spec: Endpoints → Workflows, completed in its style). */
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import type { ErrorCode } from '../../core/errors/catalogue';
import {
  archiveWorkflow,
  getVersion,
  listVersions,
  pauseWorkflow,
  publishWorkflow,
  resumeWorkflow,
  unpublishWorkflow,
} from './lifecycle';
import {
  createWorkflowInput,
  patchWorkflowInput,
  publishInput,
  putGraphInput,
  restoreVersionInput,
  restoreVersionOutput,
  putGraphOutput,
  createWorkflowOutput,
  testMessagesInput,
  testMessagesOutput,
  testRunInput,
  testRunOutput,
  versionDetailOutput,
  versionListOutput,
  versionOutput,
  versionRefInput,
  webhookInput,
  webhookOutput,
  workflowDetailOutput,
  workflowIdInput,
  workflowListOutput,
  workflowOutput,
} from './schemas';
import { createWorkflow, deleteWorkflow, getWorkflow, listWorkflows, patchWorkflow, putGraph, setTestMessages } from './service';
import { restoreVersion } from './restore';
import { startTestRun } from './test-runs';
import { configureWebhook } from './webhook';
import { docs } from './docs';

const tag = 'Workflows';
const read = { kind: 'scope', scope: 'workflows:read' } as const;
const write = { kind: 'scope', scope: 'workflows:write' } as const;
const notFound: ErrorCode[] = ['workflow.not_found'];

/** pause / resume / unpublish / archive: the same shape, one transition each. */
function transition(path: string, errors: ErrorCode[], summary: { en: string; fr: string }, description: { en: string; fr: string }) {
  return route({ method: 'POST', path: `/api/v1/workflows/{id}/${path}`, access: write, errors: [...notFound, ...errors], tag, summary, description });
}

export const workflowsRouter = router({
  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows',
        access: write,
        status: 201,
        errors: ['workflow.invalid_graph'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(createWorkflowInput)
    .output(createWorkflowOutput)
    .mutation(({ ctx, input }) => createWorkflow(actorOf(ctx), input, ctx.ip)),

  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/workflows',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(workflowListOutput)
    .query(({ ctx }) => listWorkflows(actorOf(ctx))),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/workflows/{id}',
        access: read,
        errors: notFound,
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(workflowIdInput)
    .output(workflowDetailOutput)
    .query(({ ctx, input }) => getWorkflow(actorOf(ctx), input.id)),

  patch: procedure
    .meta(
      route({
        method: 'PATCH',
        path: '/api/v1/workflows/{id}',
        access: write,
        errors: [...notFound, 'workflow.archived', 'workflow.execution_limit_invalid', 'workflow.invalid_error_workflow'],
        tag,
        summary: docs.patch.summary,
        description: docs.patch.description,
      }),
    )
    .input(patchWorkflowInput)
    .output(workflowOutput)
    .mutation(({ ctx, input }) => patchWorkflow(actorOf(ctx), input, ctx.ip)),

  putGraph: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/workflows/{id}/graph',
        access: write,
        errors: [...notFound, 'workflow.archived', 'workflow.invalid_graph', 'workflow.revision_conflict'],
        tag,
        summary: docs.putGraph.summary,
        description: docs.putGraph.description,
      }),
    )
    .input(putGraphInput)
    .output(putGraphOutput)
    .mutation(({ ctx, input }) => putGraph(actorOf(ctx), input)),

  publish: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/publish',
        access: write,
        errors: [...notFound, 'workflow.archived', 'workflow.invalid_graph', 'workflow.no_trigger'],
        tag,
        summary: docs.publish.summary,
        description: docs.publish.description,
      }),
    )
    .input(publishInput)
    .output(versionOutput)
    .mutation(({ ctx, input }) => publishWorkflow(actorOf(ctx), input, ctx.ip)),

  unpublish: procedure
    .meta(
      transition(
        'unpublish',
        [],
        docs.unpublish.summary,
        docs.unpublish.description,
      ),
    )
    .input(workflowIdInput)
    .output(workflowOutput)
    .mutation(({ ctx, input }) => unpublishWorkflow(actorOf(ctx), input.id, ctx.ip)),

  pause: procedure
    .meta(
      transition(
        'pause',
        ['workflow.archived', 'workflow.not_published'],
        docs.pause.summary,
        docs.pause.description,
      ),
    )
    .input(workflowIdInput)
    .output(workflowOutput)
    .mutation(({ ctx, input }) => pauseWorkflow(actorOf(ctx), input.id, ctx.ip)),

  resume: procedure
    .meta(
      transition(
        'resume',
        ['workflow.archived'],
        docs.resume.summary,
        docs.resume.description,
      ),
    )
    .input(workflowIdInput)
    .output(workflowOutput)
    .mutation(({ ctx, input }) => resumeWorkflow(actorOf(ctx), input.id, ctx.ip)),

  archive: procedure
    .meta(
      transition(
        'archive',
        [],
        docs.archive.summary,
        docs.archive.description,
      ),
    )
    .input(workflowIdInput)
    .output(workflowOutput)
    .mutation(({ ctx, input }) => archiveWorkflow(actorOf(ctx), input.id, ctx.ip)),

  versions: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/workflows/{id}/versions',
        access: read,
        errors: notFound,
        tag,
        summary: docs.versions.summary,
        description: docs.versions.description,
      }),
    )
    .input(workflowIdInput)
    .output(versionListOutput)
    .query(({ ctx, input }) => listVersions(actorOf(ctx), input.id)),

  version: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/workflows/{id}/versions/{versionId}',
        access: read,
        errors: [...notFound, 'workflow.version_not_found'],
        tag,
        summary: docs.version.summary,
        description: docs.version.description,
      }),
    )
    .input(versionRefInput)
    .output(versionDetailOutput)
    .query(({ ctx, input }) => getVersion(actorOf(ctx), input)),

  restoreVersion: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/versions/{versionId}/restore',
        access: write,
        idempotent: true,
        errors: [...notFound, 'workflow.version_not_found', 'workflow.archived', 'workflow.invalid_graph', 'workflow.revision_conflict'],
        tag,
        summary: docs.restoreVersion.summary,
        description: docs.restoreVersion.description,
      }),
    )
    .input(restoreVersionInput)
    .output(restoreVersionOutput)
    .mutation(({ ctx, input }) => restoreVersion(actorOf(ctx), input)),

  testMessages: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/workflows/{id}/test-messages',
        access: write,
        errors: [...notFound, 'workflow.test_message_not_found'],
        tag,
        summary: docs.testMessages.summary,
        description: docs.testMessages.description,
      }),
    )
    .input(testMessagesInput)
    .output(testMessagesOutput)
    .mutation(({ ctx, input }) => setTestMessages(actorOf(ctx), input)),

  testRun: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/test-runs',
        access: write,
        throttle: { bucket: 'test_runs' },
        status: 202,
        errors: [...notFound, 'workflow.invalid_graph', 'workflow.test_message_not_found', 'workflow.trigger_data_too_large', 'workflow.run_limit_reached'],
        tag,
        summary: docs.testRun.summary,
        description: docs.testRun.description,
      }),
    )
    .input(testRunInput)
    .output(testRunOutput)
    .mutation(({ ctx, input }) => startTestRun(actorOf(ctx), input)),

  webhook: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/webhook',
        access: write,
        errors: [...notFound, 'credentials.encryption_disabled'],
        tag,
        summary: docs.webhook.summary,
        description: docs.webhook.description,
      }),
    )
    .input(webhookInput)
    .output(webhookOutput)
    .mutation(({ ctx, input }) => configureWebhook(actorOf(ctx), input, ctx.ip)),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/workflows/{id}',
        access: write,
        errors: notFound,
        tag,
        summary: docs.delete.summary,
        description: docs.delete.description,
      }),
    )
    .input(workflowIdInput)
    .output(workflowOutput)
    .mutation(({ ctx, input }) => deleteWorkflow(actorOf(ctx), input.id, ctx.ip)),
});
