'use client';

/** The three states every list shows besides its data: loading, error (with retry) and empty. */
import type { ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from './alert';
import { Button } from './button';

export function LoadingState({ rows = 4, label }: { rows?: number; label?: string }) {
  const { t } = useI18n();
  return (
    <div role="status" aria-live="polite" className="overflow-hidden rounded-lg border border-line bg-surface shadow-xs" data-testid="list-loading">
      <span className="sr-only">{label ?? t.common.loading}</span>
      <div className="h-10 border-b border-line bg-subtle/60" />
      <div className="divide-y divide-line">
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className="flex items-center gap-6 px-4 py-3.5">
            <div className="h-3 w-1/5 animate-pulse rounded bg-subtle" />
            <div className="h-3 w-1/4 animate-pulse rounded bg-subtle" />
            <div className="h-3 w-1/6 animate-pulse rounded bg-subtle" />
            <div className="ml-auto h-3 w-16 animate-pulse rounded bg-subtle" />
          </div>
        ))}
      </div>
    </div>
  );
}

export function ErrorState({ error, onRetry, testId = 'list-error' }: { error: unknown; onRetry?: () => void; testId?: string }) {
  const { t } = useI18n();
  return (
    <Alert
      tone="danger"
      testId={testId}
      title={t.common.errorTitle}
      action={
        onRetry ? (
          <Button size="sm" onClick={onRetry}>
            {t.common.retry}
          </Button>
        ) : null
      }
    >
      {describeError(error, t)}
    </Alert>
  );
}

export function EmptyState({ icon, title, body, action }: { icon?: ReactNode; title: string; body?: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-lg border border-dashed border-line-strong bg-surface px-6 py-12 text-center" data-testid="list-empty">
      {icon ? <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-brand/10 text-brand-fg">{icon}</div> : null}
      <h3 className="text-sm font-semibold">{title}</h3>
      {body ? <p className="mt-1 max-w-sm text-sm text-muted">{body}</p> : null}
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}
