'use client';

/** Administration pages render only for administrators (the API refuses others anyway). */
import type { ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Card } from '@/app/ui/card';
import { LockIcon } from '@/app/ui/icons';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { useMe } from '../_shell/_lib/api';

export function AdminGate({ children }: { children: ReactNode }) {
  const { t } = useI18n();
  const me = useMe();
  if (me.isPending) return <LoadingState rows={3} />;
  if (me.isError) return <ErrorState error={me.error} onRetry={() => me.refetch()} />;
  if (me.data.role !== 'admin') {
    return (
      <Card className="flex flex-col items-center px-6 py-16 text-center">
        <div className="mb-4 flex size-11 items-center justify-center rounded-full bg-subtle text-muted">
          <LockIcon size={20} />
        </div>
        <h1 className="text-base font-semibold">{t.adminOnly.title}</h1>
        <p className="mt-1 max-w-sm text-sm text-muted">{t.adminOnly.body}</p>
      </Card>
    );
  }
  return children;
}
