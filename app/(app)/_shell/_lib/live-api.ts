'use client';

/**
 * What the live channel's events mean for the cached queries (mounted once, in the shell): new
 * notifications refresh the bell; mail changes refresh the thread lists, the folder counts and the
 * open threads they name; mailbox status changes patch the mailbox list at once (progress bars),
 * then refresh it. Execution events refresh the runs lists, the open run (its steps) and, when a run
 * fails, the incidents. A support thread's change refreshes the Support overview (list, badge) and that
 * thread. After a reconnection everything live is re-read (events may have been missed).
 */
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useRealtimeEvent, useRealtimeReconnect } from '@/app/lib/realtime';
import { mailKeys, refreshMailViews } from '@/app/lib/mail-query-keys';
import type { Mailbox, MailboxBackfill } from '@/app/lib/mail-types';
import { useTRPC } from '@/app/lib/trpc';

type NotificationFeed = InfiniteData<{ unreadCount: number }>;

function isBackfill(value: unknown): value is MailboxBackfill {
  return Boolean(value && typeof value === 'object' && typeof (value as { status?: unknown }).status === 'string');
}

export function useLiveUpdates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  const refreshNotifications = () => void queryClient.invalidateQueries(trpc.notifications.list.infiniteQueryFilter());
  const refreshMail = (threadIds?: string[]) => refreshMailViews(queryClient, threadIds);
  const refreshMailboxes = () => void queryClient.invalidateQueries(trpc.mailboxes.list.queryFilter());
  // Runs emit bursts of events (a short run: running, its steps and its end within milliseconds). Each
  // burst is coalesced into one re-read after its LAST event: a re-read started mid-burst could answer
  // a state the next event already replaced, and a kept in-flight read would then stay stale.
  const pending = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const timers = pending.current;
    return () => timers.forEach((timer) => clearTimeout(timer));
  }, []);
  const afterBurst = (key: string, refresh: () => void) => {
    clearTimeout(pending.current.get(key));
    pending.current.set(
      key,
      setTimeout(() => {
        pending.current.delete(key);
        refresh();
      }, 120),
    );
  };
  const keep = { cancelRefetch: true } as const;
  const refreshExecutions = () => afterBurst('executions', () => void queryClient.invalidateQueries(trpc.executions.list.infiniteQueryFilter(), keep));
  const refreshExecution = (id: string) => afterBurst(`execution:${id}`, () => void queryClient.invalidateQueries(trpc.executions.detail.queryFilter({ id }), keep));
  const refreshIncidents = () => afterBurst('incidents', () => void queryClient.invalidateQueries(trpc.executions.incidents.list.infiniteQueryFilter(), keep));

  useRealtimeEvent('notification.created', refreshNotifications);

  // An approval asked for, decided (here, in another tab or from an email link), expired or cancelled.
  const refreshApprovals = () => afterBurst('approvals', () => void queryClient.invalidateQueries(trpc.approvals.list.infiniteQueryFilter(), keep));
  useRealtimeEvent('approval.changed', refreshApprovals);

  // Read, read-all or archive in another tab: the count moves at once, the lists on their next read.
  useRealtimeEvent('notification.unread', (payload) => {
    const unreadCount = payload.unreadCount;
    if (typeof unreadCount !== 'number') return refreshNotifications();
    queryClient.setQueriesData(trpc.notifications.list.infiniteQueryFilter(), (feed: NotificationFeed | undefined) =>
      feed ? { ...feed, pages: feed.pages.map((page) => ({ ...page, unreadCount })) } : feed,
    );
    void queryClient.invalidateQueries({ ...trpc.notifications.list.infiniteQueryFilter(), refetchType: 'none' });
  });

  useRealtimeEvent('mail.changed', (payload) => {
    // While a thread action is on its way, its own settling re-reads everything: re-reading now could
    // bring back, for a moment, a thread the optimistic update already moved.
    if (queryClient.isMutating({ mutationKey: mailKeys.threadAction }) === 0) {
      refreshMail(Array.isArray(payload.threadIds) ? payload.threadIds : undefined);
    }
    // New or removed mail changes the mailbox's message count (flags and bodies filled in do not).
    if (payload.reason !== 'flags' && payload.reason !== 'bodies') refreshMailboxes();
  });

  useRealtimeEvent('mailbox.status', (payload) => {
    const { mailboxId } = payload;
    const key = trpc.mailboxes.list.queryKey();
    const cached = queryClient.getQueryData<{ mailboxes: Mailbox[] }>(key);
    const current = cached?.mailboxes.find((mailbox) => mailbox.id === mailboxId);
    // Progress events patch the list in place; anything else (or an unknown mailbox) re-reads it.
    if (!cached || !current || (payload.status && payload.status !== current.status)) {
      refreshMailboxes();
      return;
    }
    queryClient.setQueryData(key, {
      ...cached,
      mailboxes: cached.mailboxes.map((mailbox) => {
        if (mailbox.id !== mailboxId) return mailbox;
        const next: Mailbox = { ...mailbox };
        if (isBackfill(payload.backfill)) next.backfill = payload.backfill;
        if (payload.lastDeltaAt !== undefined) next.lastDeltaAt = payload.lastDeltaAt;
        return next;
      }),
    });
    if (!isBackfill(payload.backfill) && payload.lastDeltaAt === undefined) refreshMailboxes();
  });

  useRealtimeEvent('execution.status', (payload) => {
    refreshExecutions();
    if (payload.executionId) refreshExecution(payload.executionId);
    else afterBurst('execution:*', () => void queryClient.invalidateQueries(trpc.executions.detail.queryFilter(), keep));
    // A failure opens an incident; a success may be a replay that resolved one (resolve-incidents.ts).
    if (payload.status === 'failed' || payload.status === 'succeeded' || !payload.status) refreshIncidents();
  });

  useRealtimeEvent('execution.step', (payload) => {
    if (payload.executionId) refreshExecution(payload.executionId);
    else afterBurst('execution:*', () => void queryClient.invalidateQueries(trpc.executions.detail.queryFilter(), keep));
  });

  // A support thread changed (a message, a delivery, a status or assignee, a read in another tab): the list
  // and the badge (the overview) and that thread are read again.
  const refreshSupport = (threadId?: string) => {
    void queryClient.invalidateQueries(trpc.support.overview.queryFilter());
    void queryClient.invalidateQueries(threadId ? trpc.support.get.queryFilter({ id: threadId }) : trpc.support.get.queryFilter());
  };
  useRealtimeEvent('support.thread', (payload) => refreshSupport(typeof payload.threadId === 'string' ? payload.threadId : undefined));

  useRealtimeReconnect(() => {
    refreshNotifications();
    refreshMail();
    refreshMailboxes();
    refreshExecutions();
    void queryClient.invalidateQueries(trpc.executions.detail.queryFilter());
    refreshIncidents();
    refreshApprovals();
    refreshSupport();
  });
}
