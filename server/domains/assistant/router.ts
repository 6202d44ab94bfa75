/**
 * The assistant's routes: conversations as the spec gives them (list, create, read), and ours in the
 * same style: send a turn (202, run server-side and streamed over the real-time channel), cancel it,
 * and accept or reject a graph proposal.
 */
import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  conversationDetailOutput,
  conversationListOutput,
  conversationOutput,
  createConversationInput,
  listConversationsInput,
  proposalDecisionOutput,
  proposalRefInput,
  turnInput,
  turnOutput,
} from './schemas';
import { acceptProposal, cancelTurn, createConversation, getConversation, listConversations, rejectProposal, sendTurn } from './service';
import { docs } from './docs';

const tag = 'Assistant';
const read = { kind: 'scope', scope: 'assistant:read' } as const;
const write = { kind: 'scope', scope: 'assistant:write' } as const;
const badRequestCode = 'assistant.bad_request' as const;

export const assistantRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/assistant/conversations',
        access: read,
        badRequestCode,
        errors: ['assistant.bad_request'],
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listConversationsInput)
    .output(conversationListOutput)
    .query(({ ctx, input }) => listConversations(actorOf(ctx), input)),

  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/assistant/conversations',
        access: write,
        idempotent: true,
        status: 201,
        badRequestCode,
        errors: ['assistant.bad_request', 'assistant.model_not_allowed', 'assistant.tools_not_supported'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(createConversationInput)
    .output(conversationOutput)
    .mutation(({ ctx, input }) => createConversation(actorOf(ctx), input)),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/assistant/conversations/{id}',
        access: read,
        errors: ['assistant.not_found'],
        tag,
        summary: docs.get.summary,
        description: docs.get.description,
      }),
    )
    .input(uuidParam)
    .output(conversationDetailOutput)
    .query(({ ctx, input }) => getConversation(actorOf(ctx), input.id)),

  turn: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/assistant/conversations/{id}/turns',
        access: write,
        throttle: { bucket: 'assistant_turns' },
        status: 202,
        badRequestCode,
        errors: [
          'assistant.bad_request',
          'assistant.not_found',
          'assistant.turn_running',
          'assistant.model_not_allowed',
          'assistant.tools_not_supported',
          'assistant.no_provider',
          'llm.budget_exceeded',
        ],
        tag,
        summary: docs.turn.summary,
        description: docs.turn.description,
      }),
    )
    .input(turnInput)
    .output(turnOutput)
    .mutation(({ ctx, input }) => sendTurn(actorOf(ctx), input)),

  cancel: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/assistant/conversations/{id}/cancel',
        access: write,
        errors: ['assistant.not_found'],
        tag,
        summary: docs.cancel.summary,
        description: docs.cancel.description,
      }),
    )
    .input(uuidParam)
    .output(conversationOutput)
    .mutation(({ ctx, input }) => cancelTurn(actorOf(ctx), input.id)),

  accept: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/assistant/conversations/{id}/proposals/{proposalId}/accept',
        access: write,
        errors: ['assistant.not_found', 'assistant.proposal_decided', 'workflow.revision_conflict', 'workflow.invalid_graph', 'workflow.archived', 'workflow.not_found'],
        tag,
        summary: docs.accept.summary,
        description: docs.accept.description,
      }),
    )
    .input(proposalRefInput)
    .output(proposalDecisionOutput)
    .mutation(({ ctx, input }) => acceptProposal(actorOf(ctx), input)),

  reject: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/assistant/conversations/{id}/proposals/{proposalId}/reject',
        access: write,
        errors: ['assistant.not_found', 'assistant.proposal_decided'],
        tag,
        summary: docs.reject.summary,
        description: docs.reject.description,
      }),
    )
    .input(proposalRefInput)
    .output(proposalDecisionOutput)
    .mutation(({ ctx, input }) => rejectProposal(actorOf(ctx), input)),
});
