/**
 * What a thread action does to a cached thread list, applied before the service answers (optimistic
 * update) and undone if it refuses. Pure, so the rules are unit-tested: flags change in place; a
 * thread leaves a list when the action moves it out of the list's folder or out of its filter.
 */
import type { FolderRole, Thread, ThreadAction, ThreadFilter } from '@/app/lib/mail-types';

export interface ListScope {
  /** The folder key of the list and its role (null for a personal folder). */
  folder: string;
  role: FolderRole | null;
  filter: ThreadFilter;
  searchEverywhere: boolean;
}

export interface ActionRequest {
  action: ThreadAction;
  /** Destination of `move` (a folder key). */
  toFolder?: string;
}

/** The thread as it looks after the action (flags and counts). */
export function patchThread<T extends Thread>(thread: T, { action }: ActionRequest): T {
  switch (action) {
    case 'markRead':
      return { ...thread, unreadCount: 0, flags: { ...thread.flags, seen: true } };
    case 'markUnread':
      return { ...thread, unreadCount: Math.max(1, thread.unreadCount), flags: { ...thread.flags, seen: false } };
    case 'flag':
      return { ...thread, flags: { ...thread.flags, flagged: true } };
    case 'unflag':
      return { ...thread, flags: { ...thread.flags, flagged: false } };
    default:
      return thread;
  }
}

/** Roles a thread lands in after a moving action (null: it does not move). */
function destinationRole(action: ThreadAction): FolderRole | 'gone' | null {
  switch (action) {
    case 'archive':
      return 'archive';
    case 'unarchive':
    case 'restore':
    case 'notSpam':
      return 'inbox';
    case 'trash':
      return 'trash';
    case 'spam':
      return 'spam';
    case 'deletePermanently':
      return 'gone';
    default:
      return null;
  }
}

/** Whether the thread still belongs in the list after the action. */
export function staysInList(scope: ListScope, request: ActionRequest): boolean {
  const { action } = request;
  if (action === 'unflag' && (scope.filter === 'flagged' || scope.role === 'starred')) return false;
  if (action === 'deletePermanently') return false;
  // A search across every folder shows the thread wherever it goes.
  if (scope.searchEverywhere) return true;
  if (action === 'move') return request.toFolder === scope.folder;
  const destination = destinationRole(action);
  if (destination === null) return true;
  if (destination === 'gone') return false;
  if (scope.role === destination) return true;
  // "All mail" keeps what is neither trash nor spam; "starred" keeps flagged threads wherever they are.
  if (scope.role === 'all') return destination !== 'trash' && destination !== 'spam';
  if (scope.role === 'starred') return destination !== 'trash' && destination !== 'spam';
  return false;
}

export interface ThreadPage {
  threads: Thread[];
  nextCursor: string | null;
}

export function applyToPages<P extends ThreadPage>(pages: P[], threadId: string, scope: ListScope, request: ActionRequest): P[] {
  const keep = staysInList(scope, request);
  return pages.map((page) => ({
    ...page,
    threads: keep
      ? page.threads.map((thread) => (thread.id === threadId ? patchThread(thread, request) : thread))
      : page.threads.filter((thread) => thread.id !== threadId),
  }));
}

/** The thread to open after the open one left the list: the next one, else the previous one. */
export function neighbourAfterRemoval(threads: Thread[], threadId: string): string | null {
  const index = threads.findIndex((thread) => thread.id === threadId);
  if (index === -1) return null;
  return threads[index + 1]?.id ?? threads[index - 1]?.id ?? null;
}
