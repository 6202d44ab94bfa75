'use client';

/** Admin → OAuth applications: each provider's state and its registration. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OAuthAppState, OAuthProvider } from '@/app/lib/mail-types';
import { useTRPC } from '@/app/lib/trpc';

export function useOAuthApp(provider: OAuthProvider) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.oauth.getApp.queryOptions({ provider }), select: (data): OAuthAppState => data });
}

export function useSaveOAuthApp() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.oauth.putApp.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.oauth.getApp.queryKey({ provider: data.provider }), data),
    }),
  );
}
