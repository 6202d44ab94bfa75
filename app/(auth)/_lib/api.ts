'use client';

/** The signed-out pages' access to the API: signing in and accepting an invitation. */
import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

export function useLogin(handlers: { onSuccess: () => void; onError: (error: unknown) => void }) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.login.mutationOptions(handlers));
}

export function useAcceptInvitation(onAccepted: () => void) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.acceptInvitation.mutationOptions({ onSuccess: onAccepted }));
}
