'use client';

/** The whole notification feed (the bell shows the same list), with an unread-only filter. */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { CheckboxField } from '@/app/ui/field';
import { PageHeader } from '@/app/ui/page-header';
import { NotificationList } from '../_shell/notifications/notification-list';
import { useNotificationActions, useNotificationFeed } from '../_shell/notifications/api';

export function NotificationsView() {
  const { t } = useI18n();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const feed = useNotificationFeed();
  const { markAllRead } = useNotificationActions();
  const unread = feed.data?.pages[0]?.unreadCount ?? 0;
  return (
    <>
      <PageHeader
        title={t.sections.notifications.title}
        description={t.sections.notifications.description}
        actions={
          <Button disabled={unread === 0} loading={markAllRead.isPending} onClick={() => markAllRead.mutate()}>
            {t.notifications.markAllRead}
          </Button>
        }
      />
      <CheckboxField className="mb-4" label={t.notifications.unreadOnly} checked={unreadOnly} onChange={(event) => setUnreadOnly(event.target.checked)} />
      <Card>
        <NotificationList unreadOnly={unreadOnly} />
      </Card>
    </>
  );
}
