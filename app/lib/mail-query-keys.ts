/**
 * Query-key prefixes of the mail procedures, for invalidations that cross views (a mailbox removed,
 * a live event): tRPC's TanStack keys start with the procedure path (`[['mail', 'threads', 'list'], …]`),
 * and TanStack matches a filter key as a prefix, so `[['mail', 'threads']]` covers every thread query.
 */
import type { QueryClient } from '@tanstack/react-query';

export const mailKeys = {
  mailboxes: [['mailboxes', 'list']],
  folders: [['mail', 'folders']],
  threadLists: [['mail', 'threads', 'list']],
  thread: (id?: string) => (id ? [['mail', 'threads', 'get'], { input: { id } }] : [['mail', 'threads', 'get']]),
  messages: [['mail', 'messages']],
  /** Mutation key of thread actions. */
  threadAction: [['mail', 'threads', 'act']],
  notifications: [['notifications', 'list']],
} as const;

/** After mail changed: thread lists, folder counts and (some or all) open threads re-read. */
export function refreshMailViews(queryClient: QueryClient, threadIds?: string[]): void {
  void queryClient.invalidateQueries({ queryKey: mailKeys.threadLists });
  void queryClient.invalidateQueries({ queryKey: mailKeys.folders });
  if (threadIds && threadIds.length > 0) {
    for (const id of threadIds) void queryClient.invalidateQueries({ queryKey: mailKeys.thread(id) });
  } else {
    void queryClient.invalidateQueries({ queryKey: mailKeys.thread() });
  }
}
