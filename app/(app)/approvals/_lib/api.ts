'use client';

/** The approvals page's access to the API (`approvals.list`, `approvals.decide`). */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';
import type { ApprovalStatus } from './status';

export type Approval = RouterOutputs['approvals']['list']['approvals'][number];

export function useApprovalPages(status: ApprovalStatus) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.approvals.list.infiniteQueryOptions({ status, limit: 50 }, { getNextPageParam: (page) => page.nextCursor ?? undefined, staleTime: 10_000 }),
  );
}

/** Approves or rejects; the lists are re-read either way. */
export function useDecideApproval(onDecided: (approval: Approval) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation({
    ...trpc.approvals.decide.mutationOptions(),
    onSuccess: (answer) => onDecided(answer.approval),
    onSettled: () => void queryClient.invalidateQueries(trpc.approvals.list.infiniteQueryFilter()),
  });
}
