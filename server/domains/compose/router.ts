/**
 * POST /api/v1/messages/send, POST /api/v1/messages/send/{id}/undo, GET /api/v1/messages/{id}/reply-context,
 * GET /api/v1/mailboxes/{id}/recipient-suggestions (ours).
 */
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { recipientSuggestionsInput, recipientSuggestionsOutput, replyContextInput, replyContextOutput, sendMessageInput, sendMessageOutput, undoInput, undoOutput } from './schemas';
import { replyContext, sendMessage, undoSend } from './service';
import { suggestRecipients } from './recipients';
import { docs } from './docs';

const tag = 'Mail';

export const composeRouter = router({
  send: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/messages/send',
        access: { kind: 'scope', scope: 'messages:write' },
        idempotent: true,
        status: 202,
        badRequestCode: 'webmail.bad_request',
        errors: ['mailbox.not_found', 'mailbox.not_active', 'webmail.message_not_found', 'request.not_found'],
        tag,
        summary: docs.send.summary,
        description: docs.send.description,
      }),
    )
    .input(sendMessageInput)
    .output(sendMessageOutput)
    .mutation(({ ctx, input }) => sendMessage(actorOf(ctx), input)),

  undo: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/messages/send/{id}/undo',
        access: { kind: 'scope', scope: 'messages:write' },
        badRequestCode: 'webmail.bad_request',
        errors: ['webmail.message_not_found', 'webmail.undo_expired'],
        tag,
        summary: docs.undo.summary,
        description: docs.undo.description,
      }),
    )
    .input(undoInput)
    .output(undoOutput)
    .mutation(({ ctx, input }) => undoSend(actorOf(ctx), input.id)),

  replyContext: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/messages/{id}/reply-context',
        access: { kind: 'scope', scope: 'messages:read' },
        errors: ['webmail.message_not_found'],
        tag,
        summary: docs.replyContext.summary,
        description: docs.replyContext.description,
      }),
    )
    .input(replyContextInput)
    .output(replyContextOutput)
    .query(({ ctx, input }) => replyContext(actorOf(ctx), input)),

  recipientSuggestions: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/mailboxes/{id}/recipient-suggestions',
        access: { kind: 'scope', scope: 'messages:read' },
        badRequestCode: 'webmail.bad_request',
        errors: ['mailbox.not_found'],
        tag,
        summary: docs.recipientSuggestions.summary,
        description: docs.recipientSuggestions.description,
      }),
    )
    .input(recipientSuggestionsInput)
    .output(recipientSuggestionsOutput)
    .query(({ ctx, input }) => suggestRecipients(actorOf(ctx), input)),
});
