/** What one model call of a turn costs: recorded in the AI usage (budgets, spend) and on the conversation's counters. */
import type { CallModelResult } from '../../core/ai/types';
import { recordUsage } from '../llm';
import { addCallToConversation } from './repo';

export interface TurnCall {
  connection: { id: string; provider: Parameters<typeof recordUsage>[0]['provider'] };
  model: string;
  memberId: string;
  workflowId: string | null;
  conversationId: string;
}

export async function recordCall(input: TurnCall, result: CallModelResult): Promise<void> {
  const { costUsd } = await recordUsage({
    connectionId: input.connection.id,
    provider: input.connection.provider,
    model: input.model,
    purpose: 'assistant',
    memberId: input.memberId,
    workflowId: input.workflowId,
    conversationId: input.conversationId,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    reasoningTokens: result.usage.reasoningTokens ?? 0,
  });
  const tokens = (value: number) => (Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), 1_000_000_000) : 0);
  await addCallToConversation(input.conversationId, {
    inputTokens: tokens(result.usage.inputTokens),
    outputTokens: tokens(result.usage.outputTokens),
    costUsd,
    model: result.model.slice(0, 200),
  });
}
