'use client';

/**
 * The assistant panel's access to the API: tRPC calls, and the live text of the answer being
 * written. Deltas (`assistant.delta`) are applied at their offset; a gap (a missed event) re-reads the
 * conversation, which holds everything written so far. While a turn runs the conversation is also
 * re-read every 1.5 s, so the panel follows without the socket.
 */
import { useCallback, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent, useRealtimeReconnect } from '@/app/lib/realtime';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type Conversation = RouterOutputs['assistant']['get']['conversation'];
export type AssistantMessage = RouterOutputs['assistant']['get']['messages'][number];
export type Proposal = RouterOutputs['assistant']['get']['proposals'][number];

export const assistantPollMs = 1_500;

export function useConversations(workflowId: string | null) {
  const trpc = useTRPC();
  return useQuery(trpc.assistant.list.queryOptions(workflowId ? { workflowId, limit: 50 } : { limit: 50 }));
}

export function useConversation(id: string | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.assistant.get.queryOptions({ id: id ?? '' }),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.conversation.status === 'running' ? assistantPollMs : false),
  });
}

export function useAssistantMutations(conversationId: string | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.assistant.list.queryFilter()),
      conversationId ? queryClient.invalidateQueries(trpc.assistant.get.queryFilter({ id: conversationId })) : null,
      queryClient.invalidateQueries(trpc.workflows.get.queryFilter()),
    ]);
  return {
    create: useMutation({ ...trpc.assistant.create.mutationOptions(), onSettled: refresh }),
    turn: useMutation({ ...trpc.assistant.turn.mutationOptions(), onSettled: refresh }),
    cancel: useMutation({ ...trpc.assistant.cancel.mutationOptions(), onSettled: refresh }),
    accept: useMutation({ ...trpc.assistant.accept.mutationOptions(), onSettled: refresh }),
    reject: useMutation({ ...trpc.assistant.reject.mutationOptions(), onSettled: refresh }),
  };
}

/** Applies a delta at `offset` to `current`; null when it does not fit (a gap). */
export function applyDelta(current: string, offset: number, delta: string): string | null {
  if (offset === current.length) return current + delta;
  if (offset + delta.length <= current.length) return current; // already there (a re-read overtook it)
  if (offset < current.length) return current.slice(0, offset) + delta;
  return null;
}

/**
 * The live text of the conversation's messages as deltas arrive (messageId → text), and re-reads on
 * changes, gaps and reconnections.
 */
export function useLiveAnswer(conversationId: string | null, persisted: readonly AssistantMessage[]) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [live, setLive] = useState<Record<string, string>>({});
  const reread = useCallback(() => {
    if (!conversationId) return;
    void queryClient.invalidateQueries(trpc.assistant.get.queryFilter({ id: conversationId }));
    void queryClient.invalidateQueries(trpc.assistant.list.queryFilter());
  }, [conversationId, queryClient, trpc]);

  useRealtimeEvent('assistant.delta', (payload) => {
    if (payload.conversationId !== conversationId || !payload.messageId || payload.offset === undefined || payload.delta === undefined) return;
    const { messageId, offset, delta } = payload;
    setLive((previous) => {
      const base = previous[messageId] ?? persisted.find((message) => message.id === messageId)?.content ?? '';
      const next = applyDelta(base, offset, delta);
      if (next === null) {
        reread();
        return previous;
      }
      return { ...previous, [messageId]: next };
    });
  });
  useRealtimeEvent('assistant.changed', (payload) => {
    if (payload.conversationId === conversationId) reread();
  });
  useRealtimeReconnect(reread);

  /** What to show of a message: the longer of what is stored and what streamed in. */
  return (message: AssistantMessage) => {
    const streamed = live[message.id];
    return streamed !== undefined && streamed.length > message.content.length ? streamed : message.content;
  };
}
