'use client';

/**
 * The time window a list is narrowed to (a dashboard bar's bucket), as a removable chip:
 * "Mar 28, 00:00 → Mar 29, 00:00" in the reader's language and time zone. The label is written once
 * the page runs in the browser: the server does not know the reader's zone, and a label in the
 * server's zone would flash and mismatch on hydration.
 */
import { useSyncExternalStore } from 'react';
import { useI18n } from '@/app/i18n/client';
import { ClockIcon, CloseIcon } from '@/app/ui/icons';
import { hasWindow, windowLabel, type TimeWindow } from '../_lib/time-window';

const subscribe = () => () => {};

function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

export function WindowChip({ window, onClear }: { window: TimeWindow; onClear: () => void }) {
  const { t, locale } = useI18n();
  const inBrowser = useInBrowser();
  if (!hasWindow(window)) return null;
  const label = inBrowser ? windowLabel(window, locale, t.listWindow) : '…';
  return (
    <span
      data-testid="window-chip"
      className="inline-flex h-8 items-center gap-1.5 rounded-md bg-brand/10 pr-1 pl-2.5 text-sm text-brand-fg ring-1 ring-brand/25 ring-inset"
    >
      <ClockIcon size={14} className="shrink-0" />
      <span className="sr-only">{t.listWindow.label}: </span>
      <span className="whitespace-nowrap tabular-nums" data-testid="window-chip-label">
        {label}
      </span>
      <button
        type="button"
        onClick={onClear}
        aria-label={t.listWindow.remove}
        title={t.listWindow.remove}
        className="grid size-6 place-items-center rounded-sm hover:bg-brand/15 focus-visible:outline-2 focus-visible:outline-brand"
      >
        <CloseIcon size={14} />
      </button>
    </span>
  );
}
