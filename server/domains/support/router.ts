/**
 * Support requests to the team operating the instance (spec, Endpoints): six routes, member sessions only.
 */
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { docs } from './docs';
import * as s from './schemas';
import { getThread, openConversation, openRequest, postMessage, readThread, supportOverview } from './service';

const tag = 'Support';
const access = { kind: 'session' } as const;
const badRequestCode = 'support.bad_request' as const;
const notFound = 'support.not_found' as const;
const notLinked = 'support.not_linked' as const;

export const supportRouter = router({
  overview: procedure
    .meta(route({ method: 'GET', path: '/api/v1/support', access, tag, ...docs.overview }))
    .output(s.supportOverviewSchema)
    .query(({ ctx }) => supportOverview(actorOf(ctx))),

  get: procedure
    .meta(route({ method: 'GET', path: '/api/v1/support/threads/{id}', access, badRequestCode, errors: [badRequestCode, notFound], tag, ...docs.get }))
    .input(s.threadIdParam)
    .output(s.threadSchema)
    .query(({ ctx, input }) => getThread(actorOf(ctx), input.id)),

  read: procedure
    .meta(route({ method: 'POST', path: '/api/v1/support/threads/{id}/read', access, badRequestCode, errors: [badRequestCode, notFound], tag, ...docs.read }))
    .input(s.threadIdParam)
    .output(s.threadSchema)
    .mutation(({ ctx, input }) => readThread(actorOf(ctx), input.id)),

  openRequest: procedure
    .meta(route({ method: 'POST', path: '/api/v1/support/requests', access, status: 201, badRequestCode, errors: [badRequestCode, notLinked], tag, ...docs.openRequest }))
    .input(s.createRequestInput)
    .output(s.threadSchema)
    .mutation(({ ctx, input }) => openRequest(actorOf(ctx), input)),

  openConversation: procedure
    .meta(route({ method: 'POST', path: '/api/v1/support/threads', access, status: 201, badRequestCode, errors: [badRequestCode, notLinked], tag, ...docs.openConversation }))
    .input(s.createConversationInput)
    .output(s.threadSchema)
    .mutation(({ ctx, input }) => openConversation(actorOf(ctx), input)),

  postMessage: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/support/threads/{id}/messages',
        access,
        status: 201,
        badRequestCode,
        errors: [badRequestCode, notFound, notLinked],
        tag,
        ...docs.postMessage,
      }),
    )
    .input(s.postMessageInput)
    .output(s.threadSchema)
    .mutation(({ ctx, input }) => postMessage(actorOf(ctx), input)),
});
