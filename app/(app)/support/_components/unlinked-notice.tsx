'use client';

/**
 * What an unlinked instance shows instead of the forms (`linked: false`): why nothing can be sent, what an
 * administrator sets to link it, and that existing threads stay readable.
 */
import { useI18n } from '@/app/i18n/client';
import { Alert } from '@/app/ui/alert';

export function SupportUnlinkedNotice({ isAdmin, className }: { isAdmin: boolean; className?: string }) {
  const { t } = useI18n();
  const u = t.support.unlinked;
  return (
    <Alert tone="warning" live="none" testId="support-unlinked" title={u.title} className={className}>
      <p>{u.body}</p>
      <p className={isAdmin ? 'font-medium' : undefined}>{u.admin}</p>
      <p>{u.readable}</p>
    </Alert>
  );
}
