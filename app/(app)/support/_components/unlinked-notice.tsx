'use client';

/**
 * What an unlinked instance shows instead of the forms (`linked: false`): why nothing can be sent, what an
 * administrator sets to link it, and (on the list) that existing threads stay readable; on a thread, in place
 * of its composer.
 */
import { useI18n } from '@/app/i18n/client';
import { Alert } from '@/app/ui/alert';

export function SupportUnlinkedNotice({ isAdmin, where = 'list', className }: { isAdmin: boolean; where?: 'list' | 'thread'; className?: string }) {
  const { t } = useI18n();
  const u = t.support.unlinked;
  return (
    <Alert tone="warning" live="none" testId="support-unlinked" title={u.title} className={className}>
      <p>{where === 'thread' ? t.support.thread.unlinked : u.body}</p>
      <p className={isAdmin ? 'font-medium' : undefined}>{u.admin}</p>
      {where === 'list' ? <p>{u.readable}</p> : null}
    </Alert>
  );
}
