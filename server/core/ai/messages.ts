/**
 * Our call shapes to the AI SDK's and back: messages, tool definitions (never executed here: the
 * model's calls are returned to the caller), finish reasons, usage.
 */
import { tool, type LanguageModelUsage, type ModelMessage, type ToolSet } from 'ai';
import type { AiFinishReason, AiMessage, AiToolCall, AiToolDefinition, AiUsage } from './types';

export function toModelMessages(messages: readonly AiMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'user':
        return { role: 'user', content: message.content };
      case 'assistant':
        if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...message.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.input })),
          ],
        };
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: typeof message.result === 'string' ? { type: 'text', value: message.result } : { type: 'json', value: (message.result ?? null) as never },
            },
          ],
        };
    }
  });
}

export function toToolSet(tools: Record<string, AiToolDefinition> | undefined): ToolSet | undefined {
  if (!tools || Object.keys(tools).length === 0) return undefined;
  const set: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    Object.defineProperty(set, name, {
      value: tool({ description: definition.description, inputSchema: definition.input }),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return set;
}

export function toToolCalls(calls: readonly { toolCallId: string; toolName: string; input: unknown }[]): AiToolCall[] {
  return calls.map((call) => ({ id: call.toolCallId, name: call.toolName, input: call.input }));
}

export function toFinishReason(reason: string): AiFinishReason {
  switch (reason) {
    case 'stop':
    case 'length':
    case 'tool-calls':
    case 'content-filter':
    case 'error':
      return reason;
    default:
      return 'other';
  }
}

export function toUsage(usage: LanguageModelUsage | undefined): AiUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    reasoningTokens: usage?.outputTokenDetails?.reasoningTokens ?? null,
  };
}
