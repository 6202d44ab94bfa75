'use client';

/**
 * The toolbar's order menu: creation or update order, either way (a column's own sort is chosen from
 * its header menu and shows here while it applies).
 */
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from '@/app/ui/dropdown-menu';
import { ChevronUpDownIcon } from '@/app/ui/icons';
import type { Column, SortDir } from '../_lib/api';

export type MetaSort = 'createdAt' | 'updatedAt';

const orders = [
  { value: 'createdAt:asc', label: 'oldest' },
  { value: 'createdAt:desc', label: 'newest' },
  { value: 'updatedAt:desc', label: 'recentlyUpdated' },
  { value: 'updatedAt:asc', label: 'leastRecentlyUpdated' },
] as const;

export function OrderMenu({
  sort,
  dir,
  columns,
  onChange,
}: {
  /** The view's sort: a column key, createdAt, updatedAt, or null (creation order). */
  sort: string | null;
  dir: SortDir;
  columns: Column[];
  onChange: (sort: MetaSort, dir: SortDir) => void;
}) {
  const { t } = useI18n();
  const sortedColumn = columns.find((column) => column.key === sort) ?? null;
  const current = sortedColumn ? 'column' : `${sort ?? 'createdAt'}:${sort ? dir : 'asc'}`;
  const currentLabel = sortedColumn
    ? t.tables.toolbar.byColumn(sortedColumn.label, dir)
    : t.tables.toolbar.orders[orders.find((order) => order.value === current)?.label ?? 'oldest'];
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button aria-label={`${t.tables.toolbar.order}: ${currentLabel}`} data-testid="order-menu">
          <ChevronUpDownIcon />
          <span className="max-w-48 truncate">{currentLabel}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuRadioGroup
          value={current}
          onValueChange={(value) => {
            const [nextSort, nextDir] = value.split(':') as [MetaSort, SortDir];
            onChange(nextSort, nextDir);
          }}
        >
          {sortedColumn ? (
            <DropdownMenuRadioItem value="column" disabled>
              {currentLabel}
            </DropdownMenuRadioItem>
          ) : null}
          {orders.map((order) => (
            <DropdownMenuRadioItem key={order.value} value={order.value}>
              {t.tables.toolbar.orders[order.label]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
