'use client';

/** Data of Settings → Exclusions: one list (the member's own, or the organisation's) and its writes. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

export type ExclusionScope = 'member' | 'org';

export function useExclusions(scope: ExclusionScope, enabled = true) {
  const trpc = useTRPC();
  const options = scope === 'org' ? trpc.exclusions.adminList.queryOptions() : trpc.exclusions.list.queryOptions();
  return useQuery({ ...options, enabled, select: (data) => data.exclusions });
}

export function useExclusionActions(scope: ExclusionScope) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = scope === 'org' ? trpc.exclusions.adminList : trpc.exclusions.list;
  const refresh = () => void queryClient.invalidateQueries(list.queryFilter());
  const create = scope === 'org' ? trpc.exclusions.adminCreate : trpc.exclusions.create;
  const remove = scope === 'org' ? trpc.exclusions.adminDelete : trpc.exclusions.delete;
  return {
    create: useMutation(create.mutationOptions({ onSuccess: refresh })),
    remove: useMutation(remove.mutationOptions({ onSuccess: refresh })),
  };
}
