'use client';

/**
 * The Import and Export dialogs' access to the API (their own facade, so the Contacts page's API file stays the page
 * lane's): the import preview and the import (tRPC `contacts.import.preview` / `contacts.import.commit`), the
 * member's mailboxes for the layer choice, and the export's download address (a plain route, not tRPC).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type ImportPreview = RouterOutputs['contacts']['import']['preview'];
export type ImportPreviewLine = ImportPreview['lines'][number];
export type ImportResult = RouterOutputs['contacts']['import']['commit'];
export type ImportFormat = 'vcard' | 'csv';
export type ImportLayer = 'member' | 'shared';

export interface LineProblem {
  column: string | null;
  reason: string;
  message: string;
  value?: string;
}

export interface RejectedLine {
  line: number;
  problems: LineProblem[];
}

/** The address book as the dialogs offer it: mine, mine for one mailbox, or the organisation's. */
export interface Target {
  layer: ImportLayer;
  mailboxId?: string;
}

export function useImportMutations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return {
    preview: useMutation(trpc.contacts.import.preview.mutationOptions()),
    commit: useMutation({
      ...trpc.contacts.import.commit.mutationOptions(),
      // The list, the resolutions and anything else read from the address book are stale after an import.
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.contacts.pathKey() }),
    }),
  };
}

/** The member's mailboxes (id and address), for "My cards for …". */
export function useOwnMailboxes() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.mailboxes.list.queryOptions(), select: (data) => data.mailboxes.map((mailbox) => ({ id: mailbox.id, address: mailbox.address })) });
}

/** GET /api/v1/contacts/export.vcf or .csv: the download's address (the session cookie authenticates it). */
export function exportHref(format: ImportFormat, target: Target): string {
  const query = new URLSearchParams({ layer: target.layer, ...(target.mailboxId ? { mailboxId: target.mailboxId } : {}) });
  return `/api/v1/contacts/export.${format === 'csv' ? 'csv' : 'vcf'}?${query.toString()}`;
}
