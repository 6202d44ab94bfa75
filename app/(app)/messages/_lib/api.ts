'use client';

/**
 * The webmail's access to the API. Read side: folders (with counts, aggregated without a mailbox), thread
 * lists by cursor, one thread with its messages, and one full message (remote images only on request);
 * then what automation did with a message, compose (reply context, send, undo) and unsubscribe. Actions
 * on threads, with their optimistic updates, are in ./thread-actions-api.ts.
 */
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Folder, FullMessage, MessageSummary, Thread, ThreadFilter } from '@/app/lib/mail-types';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export const threadPageSize = 50;

export function useFolders(mailboxId: string | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.mail.folders.list.queryOptions(mailboxId ? { mailboxId } : {}),
    select: (data): { folders: Folder[]; permanentDelete: boolean } => ({ folders: data.folders, permanentDelete: data.capabilities.permanentDelete }),
  });
}

export interface ThreadQuery {
  mailboxId: string | null;
  folder: string;
  filter: ThreadFilter;
  q: string;
  searchEverywhere: boolean;
}

/** The exact input of a thread list (also the key the optimistic updates address). */
export function threadListInput(query: ThreadQuery) {
  return {
    limit: threadPageSize,
    folder: query.folder,
    filter: query.filter,
    ...(query.mailboxId ? { mailboxId: query.mailboxId } : {}),
    ...(query.q.trim() ? { q: query.q.trim() } : {}),
    ...(query.searchEverywhere && query.q.trim() ? { searchEverywhere: 'true' as const } : {}),
  };
}

export function useThreads(query: ThreadQuery) {
  const trpc = useTRPC();
  const result = useInfiniteQuery(
    trpc.mail.threads.list.infiniteQueryOptions(threadListInput(query), {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  );
  const threads = useMemo(() => result.data?.pages.flatMap((page): Thread[] => page.threads), [result.data]);
  return { ...result, threads };
}

export function useThread(id: string | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.mail.threads.get.queryOptions({ id: id ?? '' }),
    enabled: id !== null,
    select: (data): { thread: Thread; messages: MessageSummary[] } => data,
  });
}

export function useMessage(id: string, options: { enabled: boolean; allowRemoteImages: boolean }) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.mail.messages.get.queryOptions({ id, ...(options.allowRemoteImages ? { allowRemoteImages: 'true' as const } : {}) }),
    enabled: options.enabled,
    // The body is sanitised on every read: keep it for the session instead of re-reading on focus.
    staleTime: 5 * 60_000,
    select: (data): FullMessage => data,
  });
}

/** What automation did with one message (its journal entry). */
export function useMessageJournal(messageId: string) {
  const trpc = useTRPC();
  return useQuery(trpc.journal.message.queryOptions({ id: messageId }));
}

/** The reply or forward context of a message; nothing is read for a new message (`answer` null). */
export function useReplyContext(answer: { messageId: string; mode: 'reply' | 'replyAll' | 'forward' } | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.compose.replyContext.queryOptions({ id: answer?.messageId ?? '', mode: answer?.mode ?? 'reply' }),
    enabled: answer !== null,
    staleTime: 0,
  });
}

export function useSendMail(onSent: (result: RouterOutputs['compose']['send']) => void) {
  const trpc = useTRPC();
  return useMutation(trpc.compose.send.mutationOptions({ onSuccess: onSent }));
}

export function useUndoSend(onUndone: () => void) {
  const trpc = useTRPC();
  return useMutation(trpc.compose.undo.mutationOptions({ onSuccess: onUndone }));
}

export function useUnsubscribe(onDone: () => void) {
  const trpc = useTRPC();
  return useMutation(trpc.mail.messages.unsubscribe.mutationOptions({ onSuccess: onDone }));
}
