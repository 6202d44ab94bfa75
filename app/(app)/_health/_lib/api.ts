'use client';

/** The mailbox health panel's access to the API (`mailboxes.health` of the member's own mailboxes). */
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

export function useMailboxHealth(refetchInterval: number) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.mailboxes.health.queryOptions({ scope: 'me' }), refetchInterval });
}
