'use client';

/**
 * The shell's access to the API: the signed-in member, signing out, changing the password. The live
 * channel's refreshes are in ./live-api.ts, the bell's feed in ../notifications/api.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

/** The signed-in member (one cached query shared by the shell and the pages). */
export function useMe() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000, select: (data) => data.member });
}

/** `auth/me` whole (the same cached query): whether the member must change a generated password. */
export function useMeAnswer() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.auth.me.queryOptions(), staleTime: 60_000 });
}

/** Reads `auth/me` again. */
export function useRefreshMe() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
}

export function useChangePassword() {
  const trpc = useTRPC();
  return useMutation(trpc.auth.changePassword.mutationOptions());
}

export function useLogout(handlers: { onSuccess: () => void; onError: (error: unknown) => void }) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.logout.mutationOptions(handlers));
}
