/** A progress bar (role="progressbar"); without a value it is indeterminate (a moving stripe). */
import { cn } from './cn';

export function ProgressBar({
  value,
  label,
  tone = 'brand',
  className,
  testId,
}: {
  /** 0-100, or null when the progress is unknown. */
  value: number | null;
  label: string;
  tone?: 'brand' | 'warning' | 'danger';
  className?: string;
  testId?: string;
}) {
  const pct = value === null ? null : Math.max(0, Math.min(100, value));
  const bar = tone === 'danger' ? 'bg-red-600' : tone === 'warning' ? 'bg-amber-500' : 'bg-brand';
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct === null ? undefined : Math.round(pct)}
      data-testid={testId}
      className={cn('relative h-1.5 w-full overflow-hidden rounded-full bg-subtle', className)}
    >
      {pct === null ? (
        <div className={cn('absolute inset-y-0 w-1/3 animate-progress rounded-full', bar)} />
      ) : (
        <div className={cn('h-full rounded-full transition-[width] duration-500', bar)} style={{ width: `${pct}%` }} />
      )}
    </div>
  );
}
