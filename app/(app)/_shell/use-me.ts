'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

/** The signed-in member (one cached query shared by the shell and the pages). */
export function useMe() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000, select: (data) => data.member });
}
