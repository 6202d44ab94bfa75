'use client';

/**
 * The Support page (issue 23): the reader's threads with the team operating the instance (an administrator's:
 * the organisation's, each with its author), most recently active first, with their status, assignee, last
 * activity and the unread and pending markers; the last exchange with the team; "New request" and "New
 * conversation" (dialogs; the page goes to the new thread). An unlinked instance explains itself instead of
 * offering the forms; its threads stay readable. Live: the `support.thread` event re-reads the overview.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { ChatIcon, ClockIcon, PlusIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { useMe } from '../_shell/_lib/api';
import { useSupportOverview, type SupportKind, type SupportThreadSummary } from './_lib/api';
import { NewThreadDialog } from './_components/new-thread-dialog';
import { SupportStatusChip } from './_components/status-chip';
import { SupportUnlinkedNotice } from './_components/unlinked-notice';

export function threadHref(id: string): string {
  return `/support/${encodeURIComponent(id)}`;
}

function ThreadRow({ thread, showAuthor }: { thread: SupportThreadSummary; showAuthor: boolean }) {
  const { t, locale } = useI18n();
  const s = t.support;
  return (
    <li>
      <Link
        href={threadHref(thread.id)}
        data-testid="support-thread-row"
        data-thread-id={thread.id}
        className={cn(
          'flex flex-col gap-1.5 px-4 py-3 transition-colors hover:bg-subtle/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand sm:flex-row sm:items-center sm:gap-4',
          thread.unread && 'bg-brand/5',
        )}
      >
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="flex min-w-0 items-center gap-2">
            {thread.unread ? (
              <span data-testid="support-unread" className="flex shrink-0 items-center" title={s.unread}>
                <span aria-hidden="true" className="size-2 rounded-full bg-brand" />
                <span className="sr-only">{s.unread}</span>
              </span>
            ) : null}
            <span className={cn('truncate text-sm', thread.unread ? 'font-semibold' : 'font-medium')}>{thread.subject}</span>
          </span>
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
            <span>{s.kinds[thread.kind]}</span>
            {showAuthor ? <span data-testid="support-author">{s.author(thread.authorName)}</span> : null}
            <span data-testid="support-assignee">{thread.assigneeName ? s.assignee(thread.assigneeName) : s.unassigned}</span>
            <span>{s.messageCount(thread.messageCount)}</span>
          </span>
        </span>
        <span className="flex shrink-0 flex-wrap items-center gap-2">
          {thread.pending ? (
            <Badge tone="neutral" data-testid="support-pending" title={s.pendingHint}>
              <ClockIcon size={12} />
              {s.pending}
            </Badge>
          ) : null}
          <SupportStatusChip status={thread.status} />
          <time
            dateTime={thread.updatedAt}
            className="w-24 text-right text-xs whitespace-nowrap text-muted"
            title={s.lastActivity(formatDateTime(thread.updatedAt, locale))}
            data-testid="support-last-activity"
          >
            {formatListDate(thread.updatedAt, locale)}
          </time>
        </span>
      </Link>
    </li>
  );
}

export function SupportView() {
  const { t, locale } = useI18n();
  const s = t.support;
  const router = useRouter();
  const me = useMe();
  const isAdmin = me.data?.role === 'admin';
  const overview = useSupportOverview();
  const [creating, setCreating] = useState<SupportKind | null>(null);
  const linked = overview.data?.linked === true;
  const threads = overview.data?.threads ?? [];

  return (
    <>
      <PageHeader
        title={s.title}
        description={s.description}
        actions={
          linked ? (
            <div className="flex flex-wrap items-center gap-2">
              <Button onClick={() => setCreating('conversation')} data-testid="support-new-conversation">
                <ChatIcon />
                {s.newConversation}
              </Button>
              <Button variant="primary" onClick={() => setCreating('request')} data-testid="support-new-request">
                <PlusIcon />
                {s.newRequest}
              </Button>
            </div>
          ) : undefined
        }
      />
      {overview.isPending ? (
        <LoadingState />
      ) : !overview.data ? (
        <ErrorState error={overview.error} onRetry={() => overview.refetch()} testId="support-error" />
      ) : (
        <div className="space-y-4">
          {!linked ? <SupportUnlinkedNotice isAdmin={isAdmin} /> : null}
          <p className="text-xs text-muted" data-testid="support-synced-at">
            {overview.data.syncedAt ? (
              <span title={formatDateTime(overview.data.syncedAt, locale)}>{s.syncedAt(formatDateTime(overview.data.syncedAt, locale))}</span>
            ) : (
              s.syncedNever
            )}
          </p>
          {threads.length === 0 ? (
            <EmptyState
              icon={<ChatIcon size={18} />}
              title={linked ? s.empty.title : s.emptyUnlinked.title}
              body={linked ? s.empty.body : s.emptyUnlinked.body}
              action={
                linked ? (
                  <Button variant="primary" onClick={() => setCreating('request')}>
                    <PlusIcon />
                    {s.newRequest}
                  </Button>
                ) : undefined
              }
            />
          ) : (
            <ul aria-label={s.listLabel} className="divide-y divide-line overflow-hidden rounded-lg border border-line bg-surface shadow-xs" data-testid="support-threads">
              {threads.map((thread) => (
                <ThreadRow key={thread.id} thread={thread} showAuthor={isAdmin} />
              ))}
            </ul>
          )}
        </div>
      )}
      {linked ? (
        <NewThreadDialog
          kind={creating}
          onOpenChange={(open) => (open ? undefined : setCreating(null))}
          onCreated={(thread) => {
            setCreating(null);
            router.push(threadHref(thread.id));
          }}
        />
      ) : null}
    </>
  );
}
