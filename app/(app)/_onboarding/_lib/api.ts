'use client';

/** The first steps card's access to the API (`onboarding.status`). */
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/app/lib/trpc';

/** Always read again when the card is shown: the steps are done on other pages. */
export function useOnboardingStatus() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.onboarding.status.queryOptions(), staleTime: 0, refetchOnMount: 'always' });
}
