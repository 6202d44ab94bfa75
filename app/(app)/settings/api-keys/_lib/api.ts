'use client';

/** Settings → API keys' access to the API: the member's keys, creating one (its secret shown once) and revoking. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type CreatedKey = RouterOutputs['apiKeys']['create'];

export function useApiKeys() {
  const trpc = useTRPC();
  return useQuery(trpc.apiKeys.list.queryOptions());
}

export function useCreateApiKey(onCreated: (created: CreatedKey) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.apiKeys.create.mutationOptions({
      onSuccess: (created) => {
        void queryClient.invalidateQueries(trpc.apiKeys.list.queryFilter());
        onCreated(created);
      },
    }),
  );
}

export function useRevokeApiKey(onRevoked: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.apiKeys.revoke.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries(trpc.apiKeys.list.queryFilter());
        onRevoked();
      },
    }),
  );
}
