'use client';

/**
 * The review section's access to the API (the queue, one item, the decisions, the sending journal):
 * every tRPC call about review goes through this file. The queue re-reads itself on each
 * `outbound.changed` live event, and every 30 s while the live channel is down.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent, useRealtimeStatus } from '@/app/lib/realtime';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type ReviewItem = RouterOutputs['review']['list']['items'][number];
export type ReviewDetail = RouterOutputs['review']['detail'];
export type JournalEntry = RouterOutputs['review']['journal']['entries'][number];
export type ReviewQueue = 'pending' | 'snoozed' | 'unknown' | 'all';

export const reviewPageSize = 50;
export const journalPageSize = 50;
const offlineRefreshMs = 30_000;

/** Re-reads everything review shows when an item changes (another tab, the send pipeline). */
export function useReviewLiveRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const live = useRealtimeStatus();
  useRealtimeEvent('outbound.changed', (payload) => {
    void queryClient.invalidateQueries(trpc.review.list.infiniteQueryFilter());
    void queryClient.invalidateQueries(trpc.review.journal.infiniteQueryFilter());
    if (payload.outboundId) void queryClient.invalidateQueries(trpc.review.detail.queryFilter({ id: payload.outboundId }));
  });
  return live;
}

export function useReviewPages(filters: { mailboxId?: string; status: ReviewQueue }, live: boolean) {
  const trpc = useTRPC();
  return useInfiniteQuery({
    ...trpc.review.list.infiniteQueryOptions(
      { ...(filters.mailboxId ? { mailboxId: filters.mailboxId } : {}), status: filters.status, limit: reviewPageSize },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 5_000 },
    ),
    refetchInterval: live ? false : offlineRefreshMs,
  });
}

export function useReviewDetail(id: string | null, allowRemoteImages: boolean) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.review.detail.queryOptions({ id: id ?? '', allowRemoteImages: allowRemoteImages ? 'true' : 'false' }), enabled: Boolean(id), retry: false });
}

export function useJournalPages(filters: { mailboxId?: string; event?: JournalEntry['event'] }, live: boolean) {
  const trpc = useTRPC();
  return useInfiniteQuery({
    ...trpc.review.journal.infiniteQueryOptions(
      { ...(filters.mailboxId ? { mailboxId: filters.mailboxId } : {}), ...(filters.event ? { event: filters.event } : {}), limit: journalPageSize },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 5_000 },
    ),
    refetchInterval: live ? false : offlineRefreshMs,
  });
}

export function useMailboxChoices() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.mailboxes.list.queryOptions(), staleTime: 60_000 });
}

/** The decisions; each re-reads the queue and the journal when it settles. */
export function useReviewMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settle = () => {
    void queryClient.invalidateQueries(trpc.review.list.infiniteQueryFilter());
    void queryClient.invalidateQueries(trpc.review.journal.infiniteQueryFilter());
    void queryClient.invalidateQueries(trpc.review.detail.queryFilter());
  };
  return {
    send: useMutation(trpc.review.send.mutationOptions({ onSettled: settle })),
    sendMany: useMutation(trpc.review.sendMany.mutationOptions({ onSettled: settle })),
    reject: useMutation(trpc.review.reject.mutationOptions({ onSettled: settle })),
    snooze: useMutation(trpc.review.snooze.mutationOptions({ onSettled: settle })),
    resolve: useMutation(trpc.review.resolve.mutationOptions({ onSettled: settle })),
  };
}

/** A fresh name for one decision (the server answers a repeat with it the same). */
export function newClientToken(): string {
  return `review-${crypto.randomUUID()}`;
}

/** Snooze choices: in 3 hours, tomorrow at 8:00, in a week (all within the 30-day limit). */
export function snoozeUntil(choice: 'hours3' | 'tomorrow' | 'week', now = new Date()): string {
  if (choice === 'hours3') return new Date(now.getTime() + 3 * 3600_000).toISOString();
  if (choice === 'week') return new Date(now.getTime() + 7 * 86_400_000).toISOString();
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(8, 0, 0, 0);
  return tomorrow.toISOString();
}

/** Comma- or newline-separated addresses: the valid ones and those that are not. */
export function parseAddresses(text: string): { addresses: string[]; invalid: string[] } {
  const parts = text
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);
  const valid = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
  return { addresses: parts.filter((part) => valid.test(part)), invalid: parts.filter((part) => !valid.test(part)) };
}
