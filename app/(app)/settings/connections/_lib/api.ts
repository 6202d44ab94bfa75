'use client';

/**
 * Data of Settings → Connections: the list (member's, then organisation's) and its writes, the OAuth grants,
 * and My AI keys (whether the instance allows them, the member's keys and their writes).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Connection } from '@/app/lib/mail-types';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export function useConnections() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.connections.list.queryOptions({}), select: (data): Connection[] => data.items });
}

export function useConnectionActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries(trpc.connections.list.queryFilter());
  return {
    create: useMutation(trpc.connections.create.mutationOptions({ onSuccess: refresh })),
    update: useMutation(trpc.connections.update.mutationOptions({ onSuccess: refresh })),
    remove: useMutation(trpc.connections.delete.mutationOptions({ onSuccess: refresh })),
  };
}

const oauthTypes = ['mail_provider_a_oauth', 'mail_provider_b_oauth'] as const;

/** OAuth grants are listed only when their type is asked for. */
export function useOAuthGrants() {
  const trpc = useTRPC();
  const a = useQuery(trpc.connections.list.queryOptions({ type: oauthTypes[0] }));
  const b = useQuery(trpc.connections.list.queryOptions({ type: oauthTypes[1] }));
  return [...(a.data?.items ?? []), ...(b.data?.items ?? [])].filter((item) => (oauthTypes as readonly string[]).includes(item.type));
}

/** My AI keys: the member's `llm_provider` connections. */
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
