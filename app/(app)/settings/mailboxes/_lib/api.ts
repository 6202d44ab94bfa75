'use client';

/** Data of the Mailboxes page: the list and every operation on a mailbox (each refreshes the list). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refreshMailViews } from '@/app/lib/mail-query-keys';
import type { Mailbox, RemovalImpact } from '@/app/lib/mail-types';
import { useTRPC } from '@/app/lib/trpc';

export function useMailboxes() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.mailboxes.list.queryOptions(),
    select: (data): Mailbox[] => data.mailboxes,
  });
}

export function useRemovalImpact(id: string | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.mailboxes.removalImpact.queryOptions({ id: id ?? '' }),
    enabled: id !== null,
    staleTime: 0,
    select: (data): RemovalImpact => data,
  });
}

/** Every mailbox mutation; `onSuccess` refreshes the list (and the mail views for removals). */
export function useMailboxActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries(trpc.mailboxes.list.queryFilter());
  const refreshMail = () => {
    refresh();
    refreshMailViews(queryClient);
  };
  return {
    connectImap: useMutation(trpc.mailboxes.connectImap.mutationOptions({ onSuccess: refreshMail })),
    sync: useMutation(trpc.mailboxes.sync.mutationOptions({ onSuccess: refresh })),
    resync: useMutation(trpc.mailboxes.resync.mutationOptions({ onSuccess: refresh })),
    backfill: useMutation(trpc.mailboxes.backfill.mutationOptions({ onSuccess: refresh })),
    disconnect: useMutation(trpc.mailboxes.disconnect.mutationOptions({ onSuccess: refreshMail })),
    remove: useMutation(trpc.mailboxes.delete.mutationOptions({ onSuccess: refreshMail })),
  };
}

export type MailboxActions = ReturnType<typeof useMailboxActions>;

/** Starts an OAuth flow for a mailbox (capability `mail`) and leaves for the provider's page. */
export function useOAuthStart() {
  const trpc = useTRPC();
  return useMutation(
    trpc.oauth.start.mutationOptions({
      onSuccess: (data) => {
        window.location.assign(data.authorizationUrl);
      },
    }),
  );
}
