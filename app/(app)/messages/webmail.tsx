'use client';

/**
 * The webmail: folders | threads | reading pane (one pane at a time on small screens). The place is
 * in the URL; search and filters are per folder. Actions are optimistic: the thread leaves the list
 * at once and the next one opens, as in the mail clients people use every day.
 */
import Link from 'next/link';
import { useCallback, useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import type { ThreadFilter } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { buttonClasses, Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { Select } from '@/app/ui/field';
import { MailIcon } from '@/app/ui/icons';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { useMailboxes } from '../settings/mailboxes/_lib/api';
import { neighbourAfterRemoval, staysInList } from './_lib/thread-cache';
import { undoOf } from './_lib/undo';
import { folderName, FolderPane, MailboxSelect } from './folder-pane';
import { ComposeDialog, type AnswerMode, type ComposeStart, type SendResult } from './compose-dialog';
import { SendToast } from './send-toast';
import { ShortcutsHelp } from './shortcuts-help';
import { ThreadListPane } from './thread-list-pane';
import type { ActRequest } from './thread-toolbar';
import { ThreadView } from './thread-view';
import { UndoToast } from './undo-toast';
import { useFolders, useThread, useThreads } from './_lib/api';
import { useShortcuts, type ShortcutCommand } from './use-shortcuts';
import { roleOfFolder, useThreadActions } from './_lib/thread-actions-api';
import { useWebmailRoute } from './use-webmail-route';

export function Webmail() {
  const { t } = useI18n();
  const w = t.webmail;
  const { route, go } = useWebmailRoute();
  const mailboxes = useMailboxes();
  const [search, setSearch] = useState({ folder: route.folder, q: '', filter: 'all' as ThreadFilter, everywhere: false });
  // Search and filter belong to the folder they were set in.
  const view = search.folder === route.folder ? search : { folder: route.folder, q: '', filter: 'all' as ThreadFilter, everywhere: false };
  const [helpOpen, setHelpOpen] = useState(false);
  const [composing, setComposing] = useState<ComposeStart | null>(null);
  const [lastSend, setLastSend] = useState<SendResult | null>(null);
  const closeToast = useCallback(() => setLastSend(null), []);
  /** The last archived thread while its toast offers Undo (`key` restarts the toast for each archive). */
  const [archived, setArchived] = useState<{ threadId: string; key: number } | null>(null);
  const closeArchiveToast = useCallback(() => setArchived(null), []);

  const folders = useFolders(route.mailboxId);
  const folderList = useMemo(() => folders.data?.folders ?? [], [folders.data]);
  const role = roleOfFolder(route.folder, folderList);
  const threadsQuery = useThreads({ mailboxId: route.mailboxId, folder: route.folder, filter: view.filter, q: view.q, searchEverywhere: view.everywhere });
  const threads = useMemo(() => threadsQuery.threads ?? [], [threadsQuery.threads]);
  const actions = useThreadActions(folderList);
  const scope = { folder: route.folder, role, filter: view.filter, searchEverywhere: view.everywhere && Boolean(view.q.trim()) };

  // A disconnected mailbox's mail stays readable but takes no action (the service refuses them).
  const activeMailboxes = useMemo(
    () => new Set((mailboxes.data ?? []).filter((mailbox) => mailbox.status !== 'disconnected').map((mailbox) => mailbox.id)),
    [mailboxes.data],
  );
  // Opening an unread thread marks it read, where the mailbox can still take actions.
  const markReadOnOpen = useCallback(
    (id: string | null) => {
      const thread = id ? threads.find((item) => item.id === id) : undefined;
      if (thread && thread.unreadCount > 0 && activeMailboxes.has(thread.mailboxId)) actions.act({ threadId: thread.id, action: 'markRead' });
    },
    [threads, activeMailboxes, actions],
  );

  const open = useCallback(
    (id: string | null) => {
      // Opening from the list adds a history entry (Back closes the thread); moving between threads does not.
      go({ threadId: id }, id && !route.threadId ? 'push' : 'replace');
      markReadOnOpen(id);
    },
    [go, markReadOnOpen, route.threadId],
  );

  function act(request: ActRequest) {
    const threadId = route.threadId;
    if (!threadId) return;
    const thread = threads.find((item) => item.id === threadId);
    if (thread && !activeMailboxes.has(thread.mailboxId)) return;
    if (request.action && !staysInList(scope, { action: request.action, toFolder: request.folder })) {
      const next = neighbourAfterRemoval(threads, threadId);
      go({ threadId: next }, 'replace');
      markReadOnOpen(next);
    }
    actions.act({ threadId, ...request });
    if (undoOf(request)) setArchived({ threadId, key: Date.now() });
  }

  function undoArchive(threadId: string) {
    actions.act({ threadId, ...undoOf({ action: 'archive' }) });
    go({ threadId }, 'replace');
  }

  // r / a / f answer the open thread's last message; c starts a new one.
  const openThread = useThread(route.threadId);
  function answer(mode: AnswerMode) {
    const detail = openThread.data;
    const last = detail?.messages[detail.messages.length - 1];
    if (!detail || !last || !activeMailboxes.has(detail.thread.mailboxId)) return;
    setComposing({ mode, messageId: last.id, mailboxId: detail.thread.mailboxId });
  }

  function step(offset: 1 | -1) {
    if (threads.length === 0) return;
    const index = route.threadId ? threads.findIndex((thread) => thread.id === route.threadId) : -1;
    const nextIndex = index === -1 ? 0 : Math.min(threads.length - 1, Math.max(0, index + offset));
    if (threads[nextIndex] && threads[nextIndex].id !== route.threadId) open(threads[nextIndex].id);
    if (offset === 1 && nextIndex >= threads.length - 3 && threadsQuery.hasNextPage && !threadsQuery.isFetchingNextPage) void threadsQuery.fetchNextPage();
  }

  const current = route.threadId ? threads.find((thread) => thread.id === route.threadId) : undefined;
  useShortcuts((command: ShortcutCommand) => {
    switch (command) {
      case 'next':
        return step(1);
      case 'previous':
        return step(-1);
      case 'back':
        return route.threadId ? open(null) : undefined;
      case 'search':
        return document.querySelector<HTMLInputElement>('[data-shortcut-search]')?.focus();
      case 'help':
        return setHelpOpen((value) => !value);
      case 'archive':
        return act({ action: role === 'archive' ? 'unarchive' : 'archive' });
      case 'trash':
        return act({ action: role === 'trash' ? 'restore' : 'trash' });
      case 'flag':
        return act({ action: current?.flags.flagged ? 'unflag' : 'flag' });
      case 'markRead':
        return act({ action: 'markRead' });
      case 'markUnread':
        return act({ action: 'markUnread' });
      case 'reply':
      case 'replyAll':
      case 'forward':
        return answer(command);
      case 'compose':
        return setComposing({ mode: 'new', mailboxId: route.mailboxId });
    }
  }, composing === null);

  if (mailboxes.isPending) return <div className="p-6"><LoadingState rows={6} /></div>;
  if (mailboxes.isError) return <div className="p-6"><ErrorState error={mailboxes.error} onRetry={() => mailboxes.refetch()} /></div>;
  if (mailboxes.data.length === 0) {
    return (
      <div className="p-6">
        <EmptyState
          icon={<MailIcon size={18} />}
          title={w.noMailbox.title}
          body={w.noMailbox.body}
          action={
            <Link href="/settings/mailboxes" className={buttonClasses('primary')}>
              {w.noMailbox.action}
            </Link>
          }
        />
      </div>
    );
  }

  const currentFolder = folderList.find((folder) => (folder.role ?? folder.key) === route.folder || folder.key === route.folder);
  const title = scope.searchEverywhere ? w.searchResults : currentFolder ? folderName(currentFolder, t) : role ? w.roles[role] : route.folder;
  const mailboxSelect = (id: string) => (
    <MailboxSelect id={id} mailboxes={mailboxes.data} value={route.mailboxId} onChange={(mailboxId) => go({ mailboxId, folder: 'inbox', threadId: null })} />
  );

  return (
    <div className="flex min-h-0 flex-1">
      <div className="hidden w-56 shrink-0 flex-col border-r border-line bg-surface lg:flex">
        <FolderPane
          folders={folders.data?.folders}
          error={folders.error}
          onRetry={() => folders.refetch()}
          current={route.folder}
          onSelect={(folder) => go({ folder, threadId: null })}
          mailboxSelect={mailboxSelect('webmail-mailbox')}
        />
      </div>
      <div className={cn('min-h-0 w-full shrink-0 flex-col border-r border-line bg-surface md:flex md:w-80 xl:w-96', route.threadId ? 'hidden' : 'flex')}>
        <ThreadListPane
          title={title}
          titleActions={
            <>
              <Button size="sm" variant="primary" onClick={() => setComposing({ mode: 'new', mailboxId: route.mailboxId })} data-testid="compose-open">
                {t.compose.compose}
              </Button>
              <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
            </>
          }
          header={
            <div className="grid grid-cols-2 gap-2 lg:hidden">
              {mailboxSelect('webmail-mailbox-compact')}
              <div>
              <label htmlFor="webmail-folder-select" className="sr-only">
                {w.folders}
              </label>
              <Select
                id="webmail-folder-select"
                controlSize="sm"
                className="min-w-0"
                value={route.folder}
                onChange={(event) => go({ folder: event.target.value, threadId: null })}
              >
                {folderList.map((folder) => (
                  <option key={folder.key} value={folder.role ?? folder.key}>
                    {folderName(folder, t)}
                    {folder.unreadCount > 0 ? ` (${folder.unreadCount})` : ''}
                  </option>
                ))}
              </Select>
              </div>
            </div>
          }
          q={view.q}
          onSearch={(q) => setSearch({ ...view, q })}
          filter={view.filter}
          onFilter={(filter) => setSearch({ ...view, filter })}
          searchEverywhere={view.everywhere}
          onSearchEverywhere={(everywhere) => setSearch({ ...view, everywhere })}
          list={{
            threads: threadsQuery.threads,
            error: threadsQuery.error,
            hasNextPage: Boolean(threadsQuery.hasNextPage),
            isFetchingNextPage: threadsQuery.isFetchingNextPage,
            isFetchNextPageError: threadsQuery.isFetchNextPageError,
            isRefreshing: threadsQuery.isFetching && !threadsQuery.isPending && !threadsQuery.isFetchingNextPage,
            fetchNextPage: () => void threadsQuery.fetchNextPage(),
            refetch: () => void threadsQuery.refetch(),
          }}
          selectedId={route.threadId}
          onOpen={open}
        />
      </div>
      <section className={cn('min-h-0 min-w-0 flex-1 flex-col bg-canvas md:flex', route.threadId ? 'flex' : 'hidden')} aria-label={w.readingPane}>
        {actions.isError ? (
          <Alert
            tone="danger"
            testId="thread-action-error"
            className="m-3 mb-0"
            action={
              <Button size="sm" variant="ghost" onClick={() => actions.reset()}>
                {t.common.close}
              </Button>
            }
          >
            {w.actionFailed(describeError(actions.error, t))}
          </Alert>
        ) : null}
        {route.threadId ? (
          <ThreadView
            key={route.threadId}
            threadId={route.threadId}
            role={scope.searchEverywhere ? null : role}
            canAct={(mailboxId) => activeMailboxes.has(mailboxId)}
            onAct={act}
            onAnswer={(mode, messageId, mailboxId) => setComposing({ mode, messageId, mailboxId })}
            onWrite={(prefill, mailboxId) => setComposing({ mode: 'new', mailboxId, prefill })}
            onBack={() => open(null)}
          />
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center p-8 text-center text-muted" data-testid="reading-empty">
            <MailIcon size={28} />
            <p className="mt-3 text-sm">{w.noThreadSelected}</p>
            <p className="mt-1 text-xs">{w.shortcutHint}</p>
          </div>
        )}
      </section>
      <ComposeDialog
        start={composing}
        mailboxes={mailboxes.data}
        onClose={() => setComposing(null)}
        onSent={(result) => {
          setComposing(null);
          setLastSend(result);
        }}
      />
      {lastSend ? <SendToast key={lastSend.message.id} result={lastSend} onDone={closeToast} /> : null}
      {archived ? <UndoToast key={archived.key} onUndo={() => undoArchive(archived.threadId)} onDone={closeArchiveToast} /> : null}
    </div>
  );
}
