'use client';

/** Data of Settings → Connections: the list (member's, then organisation's) and its writes. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Connection } from '@/app/lib/mail-types';
import { useTRPC } from '@/app/lib/trpc';

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
