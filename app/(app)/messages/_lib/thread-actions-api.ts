'use client';

/**
 * Thread actions with optimistic updates: every cached thread list and the open thread change at
 * once (./_lib/thread-cache.ts says how), the request carries a fresh `clientToken`, and a refusal
 * puts the caches back as they were. Afterwards lists, folder counts and the thread are re-read.
 */
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { refreshMailViews } from '@/app/lib/mail-query-keys';
import type { Folder, FolderRole, MessageSummary, ThreadAction, ThreadFilter } from '@/app/lib/mail-types';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';
import { newClientToken } from './client-token';
import { applyToPages, patchThread, type ActionRequest, type ThreadPage } from './thread-cache';

const roles: readonly FolderRole[] = ['inbox', 'starred', 'sent', 'drafts', 'archive', 'all', 'spam', 'trash'];

export function roleOfFolder(folder: string, folders: readonly Folder[]): FolderRole | null {
  if ((roles as readonly string[]).includes(folder)) return folder as FolderRole;
  return folders.find((item) => item.key === folder)?.role ?? null;
}

export interface ThreadActionRequest {
  threadId: string;
  action?: ThreadAction;
  /** `move` only: the destination folder key (of the thread's mailbox) or a role name. */
  folder?: string;
  labels?: { add: string[]; remove: string[] };
}

type ListInput = { folder?: string; filter?: ThreadFilter; searchEverywhere?: 'true' | 'false' };
type Detail = RouterOutputs['mail']['threads']['get'];

function patchMessages<M extends MessageSummary>(messages: M[], request: ThreadActionRequest): M[] {
  return messages.map((message) => {
    const flags = { ...message.flags };
    if (request.action === 'markRead') flags.seen = true;
    if (request.action === 'markUnread') flags.seen = false;
    if (request.action === 'flag') flags.flagged = true;
    if (request.action === 'unflag') flags.flagged = false;
    let folderLabels = message.folderLabels;
    if (request.labels) {
      const [folderKey, ...labels] = folderLabels;
      const kept = labels.filter((label) => !request.labels!.remove.includes(label));
      folderLabels = [folderKey, ...kept, ...request.labels.add.filter((label) => !kept.includes(label))];
    }
    return { ...message, flags, folderLabels };
  });
}

export function useThreadActions(folders: readonly Folder[]) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listFilter = trpc.mail.threads.list.infiniteQueryFilter();

  const mutation = useMutation(
    trpc.mail.threads.act.mutationOptions({
      onMutate: async (input) => {
        const request: ActionRequest = { action: input.action ?? 'markRead', toFolder: input.folder };
        const detailKey = trpc.mail.threads.get.queryKey({ id: input.id });
        await Promise.all([queryClient.cancelQueries(listFilter), queryClient.cancelQueries({ queryKey: detailKey })]);
        const lists = queryClient.getQueriesData<InfiniteData<ThreadPage>>(listFilter);
        const detail = queryClient.getQueryData<Detail>(detailKey);
        if (input.action) {
          for (const [key, data] of lists) {
            if (!data) continue;
            const listInput = ((key[1] as { input?: ListInput } | undefined)?.input ?? {}) as ListInput;
            const folder = listInput.folder ?? 'inbox';
            const scope = {
              folder,
              role: roleOfFolder(folder, folders),
              filter: listInput.filter ?? 'all',
              searchEverywhere: listInput.searchEverywhere === 'true',
            };
            queryClient.setQueryData<InfiniteData<ThreadPage>>(key, { ...data, pages: applyToPages(data.pages, input.id, scope, request) });
          }
        }
        if (detail) {
          queryClient.setQueryData<Detail>(detailKey, {
            thread: input.action ? patchThread(detail.thread, request) : detail.thread,
            messages: patchMessages(detail.messages, {
              threadId: input.id,
              action: input.action,
              labels: input.labels ? { add: input.labels.add ?? [], remove: input.labels.remove ?? [] } : undefined,
            }),
          });
        }
        return { lists, detail, detailKey };
      },
      onError: (_error, _input, context) => {
        if (!context) return;
        for (const [key, data] of context.lists) queryClient.setQueryData(key, data);
        if (context.detail) queryClient.setQueryData(context.detailKey, context.detail);
      },
      onSettled: (_data, _error, input) => refreshMailViews(queryClient, [input.id]),
    }),
  );

  return {
    ...mutation,
    /** Runs one action with a fresh client token (a repeat of the same token would be a no-op). */
    act: (request: ThreadActionRequest) =>
      mutation.mutate({
        id: request.threadId,
        clientToken: newClientToken(),
        ...(request.action ? { action: request.action } : {}),
        ...(request.folder ? { folder: request.folder } : {}),
        ...(request.labels ? { labels: request.labels } : {}),
      }),
  };
}
