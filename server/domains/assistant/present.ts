import type { AssistantConversation, AssistantMessage, AssistantProposal } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import type { z } from 'zod';
import type { conversationModel, conversationStatuses, messageStatuses, proposalStatuses } from './schemas';

type Model = z.infer<typeof conversationModel>;

function modelOf(value: unknown): Model | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const raw = value as Record<string, unknown>;
  if (typeof raw.provider !== 'string' || typeof raw.model !== 'string') return null;
  return { provider: raw.provider as Model['provider'], model: raw.model, ...(typeof raw.connectionId === 'string' ? { connectionId: raw.connectionId } : {}) };
}

export function storedModelOf(row: Pick<AssistantConversation, 'model'>): Model | null {
  return modelOf(row.model);
}

export function presentConversation(row: AssistantConversation) {
  return {
    id: row.id,
    title: row.title,
    workflowId: row.workflowId,
    model: modelOf(row.model),
    lastModel: row.lastModel,
    status: row.status as (typeof conversationStatuses)[number],
    usage: { calls: row.calls, inputTokens: row.inputTokens, outputTokens: row.outputTokens, costUsd: row.costUsd === null ? null : Math.max(0, row.costUsd) },
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function errorOf(value: unknown): { code: string; message: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as Record<string, unknown>;
  return { code: typeof raw.code === 'string' ? raw.code : 'failed', message: typeof raw.message === 'string' ? raw.message : '' };
}

export function presentMessage(row: AssistantMessage) {
  return {
    id: row.id,
    role: row.role as 'user' | 'assistant' | 'tool',
    content: row.content,
    parts: Array.isArray(row.parts) ? (row.parts as { type: 'text' | 'tool_call' | 'tool_result' }[]) : [],
    status: row.status as (typeof messageStatuses)[number],
    error: errorOf(row.error),
    createdAt: iso(row.createdAt),
  };
}

export function presentProposal(row: AssistantProposal) {
  return {
    id: row.id,
    conversationId: row.conversationId,
    messageId: row.messageId,
    workflowId: row.workflowId,
    baseDraftRevision: row.baseDraftRevision,
    graph: (typeof row.graph === 'object' && row.graph !== null ? row.graph : {}) as Record<string, unknown>,
    summary: row.summary,
    status: row.status as (typeof proposalStatuses)[number],
    createdAt: iso(row.createdAt),
    decidedAt: iso(row.decidedAt),
  };
}
