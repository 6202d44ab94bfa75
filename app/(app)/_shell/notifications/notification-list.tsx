'use client';

/** The notification feed (bell dropdown and the Notifications page): newest first, infinite scroll. */
import Link from 'next/link';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import type { AppNotification } from '@/app/lib/mail-types';
import { useInfiniteScroll } from '@/app/lib/use-infinite-scroll';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { AlertIcon, BellIcon, CheckCircleIcon, CloseIcon, InfoIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { ErrorState } from '@/app/ui/states';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { notificationText } from './notification-text';
import { useNotificationActions, useNotificationFeed } from './api';

const severityIcons = { info: InfoIcon, warning: AlertIcon, error: AlertIcon } as const;
const severityTones = {
  info: 'text-brand-fg',
  warning: 'text-amber-600 dark:text-amber-400',
  error: 'text-red-600 dark:text-red-400',
} as const;

function NotificationItem({
  notification,
  onOpen,
  onArchive,
}: {
  notification: AppNotification;
  onOpen: (notification: AppNotification) => void;
  onArchive: (notification: AppNotification) => void;
}) {
  const { t, locale } = useI18n();
  const { title, body, href } = notificationText(notification, t);
  const unread = !notification.readAt;
  const Icon = notification.kind === 'mailbox.recovered' ? CheckCircleIcon : severityIcons[notification.severity] ?? InfoIcon;
  const content = (
    <>
      <Icon className={cn('mt-0.5 shrink-0', severityTones[notification.severity] ?? 'text-muted')} />
      <span className="min-w-0 flex-1">
        <span className={cn('block text-sm', unread ? 'font-semibold' : 'text-fg/90')}>{title}</span>
        {body ? <span className="mt-0.5 block text-xs break-words text-muted">{body}</span> : null}
        <span className="mt-1 block text-[11px] text-muted">{formatDateTime(notification.createdAt, locale)}</span>
      </span>
      {unread ? (
        <span className="mt-1.5 size-2 shrink-0 rounded-full bg-brand">
          <span className="sr-only">{t.notifications.unread}</span>
        </span>
      ) : null}
    </>
  );
  const itemClasses = 'flex min-w-0 flex-1 items-start gap-3 rounded-md px-2 py-2 text-left hover:bg-subtle focus-visible:bg-subtle';
  return (
    <li data-testid="notification-item" data-unread={unread || undefined} className="group flex items-start gap-1">
      {href ? (
        <Link href={href} className={itemClasses} onClick={() => onOpen(notification)}>
          {content}
        </Link>
      ) : (
        <button type="button" className={itemClasses} onClick={() => onOpen(notification)}>
          {content}
        </button>
      )}
      <Button
        size="icon"
        variant="ghost"
        className="mt-1 text-muted opacity-70 group-hover:opacity-100"
        aria-label={t.notifications.archiveLabel(title)}
        title={t.notifications.archive}
        onClick={() => onArchive(notification)}
      >
        <CloseIcon size={14} />
      </Button>
    </li>
  );
}

export function NotificationList({ unreadOnly = false, onNavigate, className }: { unreadOnly?: boolean; onNavigate?: () => void; className?: string }) {
  const { t } = useI18n();
  const feed = useNotificationFeed({ unreadOnly });
  const { markRead, archive } = useNotificationActions();
  const items = feed.data?.pages.flatMap((page) => page.items) ?? [];
  const sentinel = useInfiniteScroll<HTMLLIElement>({
    enabled: Boolean(feed.hasNextPage) && !feed.isFetchingNextPage && !feed.isFetchNextPageError,
    onReach: () => void feed.fetchNextPage(),
  });
  const actionError = markRead.error ?? archive.error;

  if (feed.isPending) {
    return (
      <div role="status" className={cn('flex items-center justify-center gap-2 py-10 text-sm text-muted', className)} data-testid="notifications-loading">
        <Spinner />
        {t.common.loading}
      </div>
    );
  }
  if (!feed.data) {
    return (
      <div className={cn('p-3', className)}>
        <ErrorState error={feed.error} onRetry={() => feed.refetch()} testId="notifications-error" />
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <div className={cn('flex flex-col items-center px-6 py-10 text-center', className)} data-testid="notifications-empty">
        <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-brand/10 text-brand-fg">
          <BellIcon size={18} />
        </div>
        <p className="text-sm font-semibold">{unreadOnly ? t.notifications.emptyUnread.title : t.notifications.empty.title}</p>
        <p className="mt-1 max-w-xs text-sm text-muted">{unreadOnly ? t.notifications.emptyUnread.body : t.notifications.empty.body}</p>
      </div>
    );
  }
  return (
    <div className={className}>
      {actionError ? (
        <Alert tone="danger" testId="notification-action-error" className="m-2">
          {describeError(actionError, t)}
        </Alert>
      ) : null}
      <ul className="space-y-0.5 p-1.5" aria-label={t.notifications.title}>
        {items.map((notification) => (
          <NotificationItem
            key={notification.id}
            notification={notification}
            onOpen={(item) => {
              if (!item.readAt) markRead.mutate({ id: item.id });
              onNavigate?.();
            }}
            onArchive={(item) => archive.mutate({ id: item.id })}
          />
        ))}
        <li ref={sentinel} aria-hidden="true" className="h-px" />
      </ul>
      <LoadMoreFooter pages={feed} end={t.notifications.end} errorTestId="notifications-more-error" className="flex justify-center px-3 pb-3" compact />
    </div>
  );
}
