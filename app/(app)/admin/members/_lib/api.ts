'use client';

/**
 * Admin → Members' access to the API: the members and their role, deactivation and reactivation (each
 * refreshes the list and the signed-in member), and the invitations.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type CreatedInvitation = RouterOutputs['members']['invite'];

export function useMembers() {
  const trpc = useTRPC();
  return useQuery(trpc.members.list.queryOptions());
}

/** Refresh the list and the signed-in member (whose own role may just have changed). */
function useRefreshMembers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.members.list.queryFilter()),
      queryClient.invalidateQueries(trpc.auth.me.queryFilter()),
    ]);
}

/** `onDone` runs after the refresh. */
export function useChangeRole(onDone: () => void) {
  const trpc = useTRPC();
  const refresh = useRefreshMembers();
  return useMutation(
    trpc.members.changeRole.mutationOptions({
      onSuccess: async () => {
        await refresh();
        onDone();
      },
    }),
  );
}

export function useDeactivateMember() {
  const trpc = useTRPC();
  const refresh = useRefreshMembers();
  return useMutation(trpc.members.deactivate.mutationOptions({ onSuccess: () => refresh() }));
}

/** `onDone` runs after the refresh. */
export function useReactivateMember(onDone: () => void) {
  const trpc = useTRPC();
  const refresh = useRefreshMembers();
  return useMutation(
    trpc.members.reactivate.mutationOptions({
      onSuccess: async () => {
        await refresh();
        onDone();
      },
    }),
  );
}

export function useInvitations() {
  const trpc = useTRPC();
  return useQuery(trpc.members.listInvitations.queryOptions());
}

export function useInvite(onCreated: (created: CreatedInvitation) => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.members.invite.mutationOptions({
      onSuccess: (created) => {
        void queryClient.invalidateQueries(trpc.members.listInvitations.queryFilter());
        onCreated(created);
      },
    }),
  );
}

/** `onDone` runs after the invitations are read again. */
export function useRevokeInvitation(onDone: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.members.revokeInvitation.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.members.listInvitations.queryFilter());
        onDone();
      },
    }),
  );
}
