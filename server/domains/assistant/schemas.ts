import { z } from 'zod';
import { aiProvider } from '../llm/schemas';

export const conversationStatuses = ['idle', 'running', 'failed', 'cancelled'] as const;
export const messageStatuses = ['streaming', 'done', 'failed', 'cancelled'] as const;
export const proposalStatuses = ['pending', 'accepted', 'rejected', 'stale'] as const;

/** Bounds: the text of one turn, conversations listed at once. */
export const assistantBounds = { content: 20_000, title: 120, listDefault: 50, listMax: 100, maxSteps: 6 } as const;

export const conversationModel = z.object({
  provider: aiProvider,
  model: z.string().trim().min(1).max(200),
  connectionId: z.uuid().optional(),
});

export const conversationSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    workflowId: z.string().nullable(),
    model: conversationModel.nullable(),
    lastModel: z.string().nullable(),
    status: z.enum(conversationStatuses),
    usage: z.object({
      calls: z.number().int().min(0),
      inputTokens: z.number().int().min(0),
      outputTokens: z.number().int().min(0),
      costUsd: z.number().min(0).nullable(),
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AssistantConversation' });

const messagePart = z
  .object({
    type: z.enum(['text', 'tool_call', 'tool_result']),
    text: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    input: z.unknown().optional(),
    result: z.unknown().optional(),
  })
  .describe('`text` {text}; `tool_call` {id, name, input}; `tool_result` {id, name, result}.');

export const messageSchema = z
  .object({
    id: z.uuid(),
    role: z.enum(['user', 'assistant', 'tool']),
    content: z.string().describe('The text of the message (for an assistant message, everything it wrote so far).'),
    parts: z.array(messagePart),
    status: z.enum(messageStatuses),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'AssistantMessage' });

export const proposalSchema = z
  .object({
    id: z.uuid(),
    conversationId: z.uuid(),
    messageId: z.uuid().nullable(),
    workflowId: z.uuid(),
    baseDraftRevision: z.number().int(),
    graph: z.record(z.string(), z.unknown()).describe('The proposed full graph (nodes, connections, notes, pins).'),
    summary: z.string(),
    status: z.enum(proposalStatuses),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: 'AssistantProposal' });

export const listConversationsInput = z.object({
  workflowId: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(assistantBounds.listMax).optional(),
});
export type ListConversationsInput = z.infer<typeof listConversationsInput>;

export const createConversationInput = z.object({
  workflowId: z.string().min(1).max(64).optional(),
  title: z.string().trim().min(1).max(assistantBounds.title).optional(),
  model: conversationModel.optional(),
});
export type CreateConversationInput = z.infer<typeof createConversationInput>;

export const turnInput = z.object({ id: z.uuid(), content: z.string().trim().min(1).max(assistantBounds.content) });
export const proposalRefInput = z.object({ id: z.uuid(), proposalId: z.uuid() });

export const conversationOutput = z.object({ conversation: conversationSchema });
export const conversationListOutput = z.object({ conversations: z.array(conversationSchema) });
export const conversationDetailOutput = z.object({ conversation: conversationSchema, messages: z.array(messageSchema), proposals: z.array(proposalSchema) });
export const turnOutput = z.object({ messageId: z.uuid().describe('The assistant message being written; read the conversation to catch up.') });
export const proposalDecisionOutput = z.object({
  proposal: proposalSchema,
  draftRevision: z.number().int().nullable().describe('The draft revision after accepting; null for a rejection.'),
});
