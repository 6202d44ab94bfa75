'use client';

/** The dashboard's access to the API: its three figure queries, their live re-read, acknowledging a failure, and the filters' lists. */
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTRPC, useTRPCClient, type RouterOutputs } from '@/app/lib/trpc';
import type { DashboardQuery } from '@/server/domains/dashboard/query';

type ExecutionsData = RouterOutputs['dashboard']['executions'];

/** Runs, mail and AI figures of one view; no query while `query` is null. */
export function useDashboardFigures(query: DashboardQuery | null, refetchInterval: number | false) {
  const trpc = useTRPC();
  const options = { placeholderData: keepPreviousData, staleTime: 30_000, refetchInterval } as const;
  return {
    executions: useQuery({ ...trpc.dashboard.executions.queryOptions(query ?? skipToken), ...options }),
    mail: useQuery({ ...trpc.dashboard.mail.queryOptions(query ?? skipToken), ...options }),
    ai: useQuery({ ...trpc.dashboard.ai.queryOptions(query ?? skipToken), ...options }),
  };
}

/** Re-reads every figure of the dashboard (one function for the page's life). */
export function useInvalidateDashboard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries(trpc.dashboard.pathFilter()), [queryClient, trpc]);
}

/** Acknowledges a recent failure's incident. */
export function useAcknowledgeFailure(query: DashboardQuery | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const executionsKey = query ? trpc.dashboard.executions.queryKey(query) : null;
  const client = useTRPCClient();
  return useMutation({
    mutationFn: (input: { id: string }) => client.executions.incidents.acknowledge.mutate(input),
    // Optimistic: the row reads "Acknowledged" at once, and goes back if the server refuses.
    onMutate: async ({ id }) => {
      if (!executionsKey) return { previous: undefined };
      await queryClient.cancelQueries({ queryKey: executionsKey });
      const previous = queryClient.getQueryData<ExecutionsData>(executionsKey);
      queryClient.setQueryData<ExecutionsData>(executionsKey, (data) =>
        data ? { ...data, recentFailures: data.recentFailures.map((failure) => (failure.incidentId === id ? { ...failure, acknowledged: true } : failure)) } : data,
      );
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (executionsKey && context?.previous) queryClient.setQueryData(executionsKey, context.previous);
    },
    onSettled: () => {
      void queryClient.invalidateQueries(trpc.dashboard.executions.pathFilter());
      void queryClient.invalidateQueries(trpc.executions.incidents.list.infiniteQueryFilter());
    },
  });
}

/** The filters' mailboxes, and the organisation's members when `withMembers`. */
export function useFilterLists(withMembers: boolean) {
  const trpc = useTRPC();
  return {
    mailboxes: useQuery({ ...trpc.mailboxes.list.queryOptions(), staleTime: 60_000 }),
    members: useQuery({ ...trpc.members.list.queryOptions(), enabled: withMembers, staleTime: 60_000 }),
  };
}
