'use client';

/** Admin → AI models: the llm domain's admin routes (connections, routing, prices, budgets, usage). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

export function useAiConnections() {
  const trpc = useTRPC();
  return useQuery(trpc.llm.admin.list.queryOptions());
}

/** After any connection change the routing's effective choices may move too. */
function useInvalidateAi() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.llm.admin.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.llm.admin.getRouting.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.llm.models.queryKey() });
  };
}

export function useCreateAiConnection() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAi();
  return useMutation(trpc.llm.admin.create.mutationOptions({ onSuccess: invalidate }));
}

export function useUpdateAiConnection() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAi();
  return useMutation(trpc.llm.admin.update.mutationOptions({ onSuccess: invalidate }));
}

export function useDeleteAiConnection() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAi();
  return useMutation(trpc.llm.admin.delete.mutationOptions({ onSuccess: invalidate }));
}

export function useMakeDefaultAiConnection() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAi();
  return useMutation(trpc.llm.admin.makeDefault.mutationOptions({ onSuccess: invalidate }));
}

export function useConnectionModels(id: string | null) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.llm.models.queryOptions({ id: id ?? '' }), enabled: id !== null });
}

export function useAiRouting() {
  const trpc = useTRPC();
  return useQuery(trpc.llm.admin.getRouting.queryOptions());
}

export function usePutAiRouting() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(trpc.llm.admin.putRouting.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.llm.admin.getRouting.queryKey(), data) }));
}

export function useAiPrices() {
  const trpc = useTRPC();
  return useQuery(trpc.llm.spend.getPrices.queryOptions());
}

export function usePutAiPrices() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(trpc.llm.spend.putPrices.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.llm.spend.getPrices.queryKey(), data) }));
}

export function useAiBudgets() {
  const trpc = useTRPC();
  return useQuery(trpc.llm.spend.getBudgets.queryOptions());
}

export function usePutAiBudgets() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(trpc.llm.spend.putBudgets.mutationOptions({ onSuccess: (data) => queryClient.setQueryData(trpc.llm.spend.getBudgets.queryKey(), data) }));
}

export function useAiUsage(month: string | undefined) {
  const trpc = useTRPC();
  return useQuery(trpc.llm.spend.usage.queryOptions({ month }));
}
