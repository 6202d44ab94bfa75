'use client';

/** Data of Settings → Connections → My AI keys: whether the instance allows them, the member's keys and their writes. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export const aiKeyType = 'llm_provider';
export type AiKey = RouterOutputs['connections']['list']['items'][number];
export type AiKeyTest = RouterOutputs['connections']['test'];
export type MemberKeysSettings = RouterOutputs['connections']['memberKeys'];

/** `GET /api/v1/llm-member-keys`: allowed, and what each provider needs. */
export function useMemberKeysSettings() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.connections.memberKeys.queryOptions(), staleTime: 60_000 });
}

/** The member's own `llm_provider` connections, newest first. */
export function useAiKeys(enabled: boolean) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.connections.list.queryOptions({ type: aiKeyType }),
    enabled,
    select: (data) => data.items.filter((item) => item.type === aiKeyType && item.scope === 'member'),
  });
}

export function useAiKeyActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries(trpc.connections.list.queryFilter());
  return {
    create: useMutation(trpc.connections.create.mutationOptions({ onSuccess: refresh })),
    remove: useMutation(trpc.connections.delete.mutationOptions({ onSuccess: refresh })),
    test: useMutation(trpc.connections.test.mutationOptions()),
  };
}
