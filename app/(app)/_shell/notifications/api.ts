'use client';

/**
 * The notification feed of the bell: newest first, by cursor, with the member's unread count; mark
 * read, mark all read and archive update the cached pages at once and roll back on error.
 */
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';
import type { AppNotification } from '@/app/lib/mail-types';

export const notificationPageSize = 30;

interface Page {
  items: AppNotification[];
  nextCursor: string | null;
  unreadCount: number;
}

type Feed = InfiniteData<Page, string | null | undefined>;

function mapFeed(feed: Feed | undefined, change: (page: Page) => Page): Feed | undefined {
  return feed ? { ...feed, pages: feed.pages.map(change) } : feed;
}

export function useNotificationFeed(options: { unreadOnly?: boolean } = {}) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.notifications.list.infiniteQueryOptions(
      { limit: notificationPageSize, ...(options.unreadOnly ? { unread: 'true' as const } : {}) },
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 30_000 },
    ),
  );
}

/** Mutations on the feed; every cached variant of the feed (all / unread only) is updated. */
export function useNotificationActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const filter = trpc.notifications.list.infiniteQueryFilter();

  async function optimistic(change: (page: Page) => Page) {
    await queryClient.cancelQueries(filter);
    const before = queryClient.getQueriesData<Feed>(filter);
    queryClient.setQueriesData<Feed>(filter, (feed) => mapFeed(feed, change));
    return { before };
  }

  function rollback(context: { before: [readonly unknown[], Feed | undefined][] } | undefined) {
    for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
  }

  function settle(unreadCount?: number) {
    if (unreadCount !== undefined) queryClient.setQueriesData<Feed>(filter, (feed) => mapFeed(feed, (page) => ({ ...page, unreadCount })));
    void queryClient.invalidateQueries(filter);
  }

  const now = () => new Date().toISOString();

  const markRead = useMutation(
    trpc.notifications.read.mutationOptions({
      onMutate: ({ id }) =>
        optimistic((page) => {
          const wasUnread = page.items.some((item) => item.id === id && !item.readAt);
          return {
            ...page,
            unreadCount: Math.max(0, page.unreadCount - (wasUnread ? 1 : 0)),
            items: page.items.map((item) => (item.id === id && !item.readAt ? { ...item, readAt: now() } : item)),
          };
        }),
      onError: (_error, _input, context) => rollback(context),
      onSuccess: (data) => settle(data.unreadCount),
    }),
  );

  const markAllRead = useMutation(
    trpc.notifications.readAll.mutationOptions({
      onMutate: () => optimistic((page) => ({ ...page, unreadCount: 0, items: page.items.map((item) => (item.readAt ? item : { ...item, readAt: now() })) })),
      onError: (_error, _input, context) => rollback(context),
      onSuccess: (data) => settle(data.unreadCount),
    }),
  );

  const archive = useMutation(
    trpc.notifications.archive.mutationOptions({
      onMutate: ({ id }) =>
        optimistic((page) => {
          const gone = page.items.find((item) => item.id === id);
          return {
            ...page,
            unreadCount: Math.max(0, page.unreadCount - (gone && !gone.readAt ? 1 : 0)),
            items: page.items.filter((item) => item.id !== id),
          };
        }),
      onError: (_error, _input, context) => rollback(context),
      onSuccess: (data) => settle(data.unreadCount),
    }),
  );

  return { markRead, markAllRead, archive };
}
