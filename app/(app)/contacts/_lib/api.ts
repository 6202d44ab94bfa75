'use client';

/**
 * The address book's access to the API (`contacts.*`, `/api/v1/contacts…`): the list, one entry, the card
 * writes, the resolution of any address, the three defaults layers and the member's signatures. Used by
 * the Contacts page and by the editors other sections host (Settings → Signatures, a mailbox's writing
 * defaults, Admin → Writing defaults). Every write refreshes what it changes: a card refreshes the list
 * (and so every entry read from it) and resolutions; a default or a signature refreshes the defaults,
 * the signatures, the list and resolutions (a default or a signature's text shows in every resolution).
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';
import type { ContactKind } from '@/server/domains/contacts/normalise';
import { contactBounds } from '@/server/domains/contacts/schemas';

export type ContactEntry = RouterOutputs['contacts']['list']['items'][number];
export type ContactResolution = RouterOutputs['contacts']['resolve'];
export type ContactDefaults = RouterOutputs['contacts']['defaults']['get'];
export type Signature = RouterOutputs['contacts']['signatures']['list']['signatures'][number];

export const contactsPageSize = 50;

export interface ContactListQuery {
  kind?: ContactKind;
  q?: string;
  layer: 'all' | 'shared' | 'member';
  mailboxId?: string;
}

export function useContactPages(query: ContactListQuery) {
  const trpc = useTRPC();
  return useInfiniteQuery(
    trpc.contacts.list.infiniteQueryOptions({ ...query, limit: contactsPageSize }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
}

/**
 * One entry as the list shows it, from a mailbox's point of view or none: read by its value (`q` is a
 * substring match, so the entry is among the answers; the longest values are cut to the bound of `q`).
 * `data` is null once no card of the entry is left.
 */
export function useContactEntry(kind: ContactKind, value: string, mailboxId: string | undefined) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.contacts.list.queryOptions({ kind, q: value.slice(0, contactBounds.q), layer: 'all', mailboxId, limit: 200 }),
    select: (data): ContactEntry | null => data.items.find((item) => item.value === value) ?? null,
  });
}

/** The resolution of any address (`GET /api/v1/contacts/resolve`); off while `address` is empty. */
export function useContactResolution(address: string, mailboxId: string | undefined) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.contacts.resolve.queryOptions({ address, mailboxId }), enabled: address !== '' });
}

/** Reads the list and the resolutions again (after an import, say). */
export function useRefreshContacts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    // The page's list is an infinite query, an entry's dialog reads the same route as a plain one: both go.
    void queryClient.invalidateQueries(trpc.contacts.list.infiniteQueryFilter());
    void queryClient.invalidateQueries(trpc.contacts.list.queryFilter());
    void queryClient.invalidateQueries(trpc.contacts.resolve.queryFilter());
  };
}

/** PUT and DELETE /api/v1/contacts: one card each. */
export function useContactActions() {
  const trpc = useTRPC();
  const refresh = useRefreshContacts();
  return {
    save: useMutation(trpc.contacts.put.mutationOptions({ onSuccess: refresh })),
    remove: useMutation(trpc.contacts.delete.mutationOptions({ onSuccess: refresh })),
  };
}

/** The three defaults layers (the mailbox's with `mailboxId`). */
export function useContactDefaults(mailboxId?: string) {
  const trpc = useTRPC();
  return useQuery(trpc.contacts.defaults.get.queryOptions({ mailboxId }));
}

export function useDefaultsActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshContacts = useRefreshContacts();
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.contacts.defaults.get.queryFilter());
    refreshContacts();
  };
  return {
    organisation: useMutation(trpc.contacts.defaults.organisation.mutationOptions({ onSuccess: refresh })),
    member: useMutation(trpc.contacts.defaults.member.mutationOptions({ onSuccess: refresh })),
    mailbox: useMutation(trpc.contacts.defaults.mailbox.mutationOptions({ onSuccess: refresh })),
  };
}

export function useSignatures(enabled = true) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.contacts.signatures.list.queryOptions(), enabled, select: (data) => data.signatures });
}

export function useSignatureActions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshContacts = useRefreshContacts();
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.contacts.signatures.list.queryFilter());
    void queryClient.invalidateQueries(trpc.contacts.defaults.get.queryFilter());
    refreshContacts();
  };
  return {
    create: useMutation(trpc.contacts.signatures.create.mutationOptions({ onSuccess: refresh })),
    update: useMutation(trpc.contacts.signatures.update.mutationOptions({ onSuccess: refresh })),
    remove: useMutation(trpc.contacts.signatures.delete.mutationOptions({ onSuccess: refresh })),
  };
}
