'use client';

/**
 * Read side of the webmail: folders (with counts, aggregated without a mailbox), thread lists by
 * cursor, one thread with its messages, and one full message (remote images only on request).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Folder, FullMessage, MessageSummary, Thread, ThreadFilter } from '@/app/lib/mail-types';
import { useTRPC } from '@/app/lib/trpc';

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
