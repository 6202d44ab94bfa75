/**
 * Inline messages. `role="alert"` only for errors that appear after an action; each carries a
 * data-testid because Next's route announcer is also a role="alert" element.
 */
import type { ReactNode } from 'react';
import { cn } from './cn';
import { AlertIcon, CheckCircleIcon, InfoIcon } from './icons';

const tones = {
  info: 'border-brand/25 bg-brand/5 text-fg [&_svg]:text-brand-fg',
  success: 'border-emerald-600/25 bg-emerald-50 text-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200',
  warning: 'border-amber-500/35 bg-amber-50 text-amber-950 dark:bg-amber-950/40 dark:text-amber-100',
  danger: 'border-red-600/25 bg-red-50 text-red-900 dark:bg-red-950/40 dark:text-red-200',
} as const;

const icons = { info: InfoIcon, success: CheckCircleIcon, warning: AlertIcon, danger: AlertIcon };

export function Alert({
  tone = 'info',
  title,
  children,
  action,
  testId,
  live = tone === 'danger' ? 'alert' : 'status',
  className,
}: {
  tone?: keyof typeof tones;
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  testId: string;
  /** 'alert' interrupts screen readers (errors), 'status' is polite, 'none' is silent. */
  live?: 'alert' | 'status' | 'none';
  className?: string;
}) {
  const Icon = icons[tone];
  return (
    <div
      role={live === 'none' ? undefined : live}
      data-testid={testId}
      className={cn('flex items-start gap-3 rounded-lg border px-3.5 py-3 text-sm', tones[tone], className)}
    >
      <Icon className="mt-0.5 shrink-0" />
      <div className="min-w-0 flex-1 space-y-1">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className={cn(title && 'opacity-90')}>{children}</div> : null}
      </div>
      {action ? <div className="shrink-0">{action}</div> : null}
    </div>
  );
}
