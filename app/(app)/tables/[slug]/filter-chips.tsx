'use client';

/** The filter conditions in effect, one removable chip each, under the toolbar. */
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { CloseIcon } from '@/app/ui/icons';
import type { Column, FilterCondition, Match } from '../_lib/api';
import { describeCondition } from '../_lib/filters';

export function FilterChips({
  conditions,
  match,
  columns,
  onRemove,
  onClear,
  onOpen,
}: {
  conditions: FilterCondition[];
  match: Match;
  columns: Column[];
  onRemove: (index: number) => void;
  onClear: () => void;
  onOpen: () => void;
}) {
  const { t, locale } = useI18n();
  if (conditions.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-[13px]" data-testid="filter-chips">
      {conditions.length > 1 ? <span className="mr-0.5 text-xs text-muted">{match === 'any' ? t.tables.toolbar.matchAny : t.tables.toolbar.matchAll}</span> : null}
      {conditions.map((condition, index) => {
        const text = describeCondition(condition, columns, locale, t);
        return (
          <span key={index} className="inline-flex max-w-full items-center rounded-full bg-brand/10 text-brand-fg ring-1 ring-brand/25 ring-inset" data-testid="filter-chip">
            <button type="button" className="truncate rounded-l-full py-0.5 pr-1 pl-2.5 hover:underline" onClick={onOpen}>
              {text}
            </button>
            <button
              type="button"
              aria-label={t.tables.toolbar.removeCondition(text)}
              className="mr-0.5 flex size-5 items-center justify-center rounded-full hover:bg-brand/15"
              onClick={() => onRemove(index)}
            >
              <CloseIcon size={12} />
            </button>
          </span>
        );
      })}
      <Button size="sm" variant="ghost" className="h-6 px-2 text-xs" onClick={onClear}>
        {t.tables.toolbar.clearFilters}
      </Button>
    </div>
  );
}
