'use client';

/** The sending holds' access to the API (`sendGuard.listHolds`, `sendGuard.releaseHold`). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

export function useOpenHolds() {
  const trpc = useTRPC();
  return useQuery(trpc.sendGuard.listHolds.queryOptions({ status: 'open', limit: 20 }));
}

export function useRefreshHolds() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.sendGuard.listHolds.queryFilter());
}

/** Releases a hold; the holds are re-read either way. */
export function useReleaseHold() {
  const refresh = useRefreshHolds();
  const trpc = useTRPC();
  return useMutation(trpc.sendGuard.releaseHold.mutationOptions({ onSettled: refresh }));
}
