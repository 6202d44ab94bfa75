'use client';

/** Admin → Audit log's access to the API: the entries (by cursor, one action or all) and the members who acted. */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

export function useAuditPages(action: string, pageSize: number) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(
      { limit: pageSize, ...(action ? { action } : {}) },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
}

export function useAuditMembers() {
  const trpc = useTRPC();
  return useQuery(trpc.members.list.queryOptions());
}
