'use client';

/** The mailbox health panel's access to the API (`mailboxes.health` of the member's own mailboxes). */
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

/** Refreshed every `refreshMs`, or every `syncingRefreshMs` while one of the mailboxes syncs. */
export function useMailboxHealth(refreshMs: number, syncingRefreshMs: number = refreshMs) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.mailboxes.health.queryOptions({ scope: 'me' }),
    refetchInterval: (query) => (query.state.data?.mailboxes.some((mailbox) => mailbox.state === 'syncing') ? syncingRefreshMs : refreshMs),
  });
}
