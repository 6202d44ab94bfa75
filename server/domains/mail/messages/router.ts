/** GET /api/v1/messages and GET /api/v1/messages/{id} (downloads and uploads are plain routes). */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { getMessageInput, listMessagesInput, listMessagesOutput, messageSchema, unsubscribeInput, unsubscribeOutput } from './schemas';
import { getMessage, listMessages } from './service';
import { unsubscribeOneClick } from './unsubscribe';
import { docs } from './docs';

const tag = 'Mail';
const read = { kind: 'scope', scope: 'messages:read' } as const;

export const messagesRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/messages',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listMessagesInput)
    .output(listMessagesOutput)
    .query(({ ctx, input }) => listMessages(actorOf(ctx), input)),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/messages/{id}',
        access: read,
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(getMessageInput)
    .output(messageSchema)
    .query(({ ctx, input }) => getMessage(actorOf(ctx), input)),

  unsubscribe: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/messages/{id}/unsubscribe',
        access: { kind: 'scope', scope: 'messages:write' },
        badRequestCode: 'webmail.bad_request',
        errors: ['webmail.message_not_found', 'webmail.unsubscribe_unavailable', 'webmail.unsubscribe_failed'],
        tag,
        summary: docs.unsubscribe.summary,
        description: docs.unsubscribe.description,
      }),
    )
    .input(unsubscribeInput)
    .output(unsubscribeOutput)
    .mutation(({ ctx, input }) => unsubscribeOneClick(actorOf(ctx), input, ctx.ip)),
});
