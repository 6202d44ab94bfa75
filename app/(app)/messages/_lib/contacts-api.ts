'use client';

/**
 * The webmail's use of the address book (issue 22): the resolved card of a sender beside a message
 * (GET /api/v1/contacts/resolve, from the message's mailbox's point of view), "Add to address book"
 * (PUT /api/v1/contacts, the member's own card), and compose's recipient suggestions
 * (GET /api/v1/mailboxes/{id}/recipient-suggestions). The Contacts page itself has its own facade.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type ContactResolution = RouterOutputs['contacts']['resolve'];
export type RecipientSuggestion = RouterOutputs['compose']['recipientSuggestions']['items'][number];

export function useSenderCard(address: string | null, mailboxId: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.contacts.resolve.queryOptions({ address: address ?? '', mailboxId }),
    enabled: Boolean(address),
    staleTime: 60_000,
  });
}

/** Saves the member's own card of an address (PUT replaces it), then refreshes every resolution. */
export function useSaveMemberCard(onSaved: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.contacts.put.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.contacts.resolve.queryKey() });
        onSaved();
      },
    }),
  );
}

export function useRecipientSuggestions(mailboxId: string, q: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.compose.recipientSuggestions.queryOptions({ id: mailboxId, q, limit: 8 }),
    enabled: mailboxId !== '',
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}
