'use client';

/**
 * The Support section's access to the API (`support.*`, `/api/v1/support…`): the overview (the threads, the
 * reader's unread count, whether the instance is linked, the last exchange with the team), one thread, marking
 * it read, and the three writes. The shell's navigation reads the unread count from the same cached overview.
 * Every write and every read mark puts the answered thread in the cache and reads the overview again; the live
 * event `support.thread` refreshes both (`_shell/_lib/live-api.ts`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';
import { supportBounds } from '@/server/domains/support/schemas';

export type SupportOverview = RouterOutputs['support']['overview'];
export type SupportThreadSummary = SupportOverview['threads'][number];
export type SupportThread = RouterOutputs['support']['get'];
export type SupportMessage = SupportThread['messages'][number];
export type SupportStatus = SupportThreadSummary['status'];
export type SupportKind = SupportThreadSummary['kind'];

/** What a member writes: subject 1-160, a message 1-5000 (the server trims, then checks the same). */
export { supportBounds };

export function useSupportOverview() {
  const trpc = useTRPC();
  return useQuery(trpc.support.overview.queryOptions());
}

/** The reader's unread count for the navigation's badge (0 until known or when the read fails). */
export function useSupportUnreadCount(): number {
  const trpc = useTRPC();
  const overview = useQuery({ ...trpc.support.overview.queryOptions(), select: (data) => data.unreadCount });
  return overview.data ?? 0;
}

export function useSupportThread(id: string) {
  const trpc = useTRPC();
  return useQuery(trpc.support.get.queryOptions({ id }));
}

/** Keeps an answered thread as `support.get` would answer it, and reads the overview (list, badge) again. */
function useThreadAnswered() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (thread: SupportThread) => {
    queryClient.setQueryData(trpc.support.get.queryKey({ id: thread.id }), thread);
    void queryClient.invalidateQueries(trpc.support.overview.queryFilter());
  };
}

/** POST …/threads/{id}/read: the thread read for the reader (their badge drops). */
export function useReadSupportThread() {
  const trpc = useTRPC();
  const answered = useThreadAnswered();
  return useMutation(trpc.support.read.mutationOptions({ onSuccess: answered }));
}

export function useSupportWrites() {
  const trpc = useTRPC();
  const answered = useThreadAnswered();
  return {
    openRequest: useMutation(trpc.support.openRequest.mutationOptions({ onSuccess: answered })),
    openConversation: useMutation(trpc.support.openConversation.mutationOptions({ onSuccess: answered })),
    postMessage: useMutation(trpc.support.postMessage.mutationOptions({ onSuccess: answered })),
  };
}
