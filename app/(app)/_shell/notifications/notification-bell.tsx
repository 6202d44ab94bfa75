'use client';

/** The bell of the shell: unread count, the feed in a dropdown panel, mark all read, a link to the page. */
import Link from 'next/link';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { BellIcon } from '@/app/ui/icons';
import { Popover, PopoverContent, PopoverTrigger } from '@/app/ui/popover';
import { NotificationList } from './notification-list';
import { useNotificationActions, useNotificationFeed } from './api';

export function NotificationBell({ align = 'start' }: { align?: 'start' | 'end' }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const feed = useNotificationFeed();
  const { markAllRead } = useNotificationActions();
  const unread = feed.data?.pages[0]?.unreadCount ?? 0;
  const shown = unread > 99 ? '99+' : String(unread);

  return (
    <div className="relative">
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button variant="ghost" size="icon" className="relative" aria-label={t.notifications.bellLabel(unread)} data-testid="notification-bell">
            <BellIcon size={18} />
            {unread > 0 ? (
              <span
                aria-hidden="true"
                data-testid="notification-count"
                className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-none font-semibold text-white"
              >
                {shown}
              </span>
            ) : null}
          </Button>
        </PopoverTrigger>
        <PopoverContent title={t.notifications.title} align={align} className={cn('w-[min(24rem,calc(100vw-1.5rem))]')}>
          <div className="absolute top-2 right-2">
            <Button size="sm" variant="ghost" disabled={unread === 0} loading={markAllRead.isPending} onClick={() => markAllRead.mutate()}>
              {t.notifications.markAllRead}
            </Button>
          </div>
          <div className="mt-2 min-h-0 flex-1 overflow-y-auto border-t border-line">
            <NotificationList onNavigate={() => setOpen(false)} />
          </div>
          <div className="shrink-0 border-t border-line px-4 py-2 text-center">
            <Link href="/notifications" className="text-sm font-medium text-brand-fg hover:underline" onClick={() => setOpen(false)}>
              {t.notifications.seeAll}
            </Link>
          </div>
        </PopoverContent>
      </Popover>
    </div>
  );
}
