/** GET /api/v1/threads, GET /api/v1/threads/{id}, POST /api/v1/threads/{id}/actions. */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { threadActionInput, threadActionOutput } from './actions/schemas';
import { actOnThread } from './actions/service';
import { listThreadsInput, listThreadsOutput, threadDetailOutput, threadIdInput } from './schemas';
import { getThread, listThreads } from './service';
import { docs } from './docs';

const tag = 'Mail';

export const threadsRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/threads',
        access: { kind: 'scope', scope: 'messages:read' },
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listThreadsInput)
    .output(listThreadsOutput)
    .query(({ ctx, input }) => listThreads(actorOf(ctx), input)),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/threads/{id}',
        access: { kind: 'scope', scope: 'messages:read' },
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(threadIdInput)
    .output(threadDetailOutput)
    .query(({ ctx, input }) => getThread(actorOf(ctx), input.id)),

  act: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/threads/{id}/actions',
        access: { kind: 'scope', scope: 'messages:write' },
        idempotent: true,
        status: 202,
        badRequestCode: 'webmail.bad_request',
        errors: ['webmail.thread_not_found', 'webmail.thread_too_large', 'webmail.message_not_found', 'webmail.unsupported_action'],
        tag,
        summary: docs.act.summary,
        description: docs.act.description,
      }),
    )
    .input(threadActionInput)
    .output(threadActionOutput)
    .mutation(({ ctx, input }) => actOnThread(actorOf(ctx), input)),
});
