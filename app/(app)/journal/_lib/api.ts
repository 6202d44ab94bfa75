'use client';

/** The message journal page's access to the API (`journal.list`, `GET /api/v1/journal`). */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type JournalEntry = RouterOutputs['journal']['list']['entries'][number];

export const journalPageSize = 50;

export interface JournalQuery {
  outcome?: 'excluded_org' | 'excluded_member' | 'guardrail' | 'unmatched' | 'dispatched';
  mailboxId?: string;
  /** The time window on the entry's creation, `[from, to)`. */
  from?: string;
  to?: string;
}

export function useJournalEntries(query: JournalQuery) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.journal.list.infiniteQueryOptions(
      { ...query, limit: journalPageSize },
      // New mail is journaled in the background: the list is re-read every 30 s while it is open.
      { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 10_000, refetchInterval: 30_000 },
    ),
  );
}
