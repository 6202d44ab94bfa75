'use client';

/** Offset pagination under the grid: the range shown, the page size and first/previous/next/last. */
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { Select } from '@/app/ui/field';
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { useNumberFormat } from './use-number-format';
import { maxOffset, pageSizes } from './use-view-state';

export function Pagination({
  offset,
  limit,
  shown,
  total,
  totalUnfiltered,
  filtered,
  busy,
  onOffset,
  onLimit,
}: {
  offset: number;
  limit: number;
  shown: number;
  total: number;
  totalUnfiltered: number;
  filtered: boolean;
  busy: boolean;
  onOffset: (offset: number) => void;
  onLimit: (limit: number) => void;
}) {
  const { t } = useI18n();
  const p = t.tables.pagination;
  const number = useNumberFormat();
  // Page n of size L starts at (n-1)·L; never past the last row nor the service's offset ceiling.
  const lastOffset = total > 0 ? Math.min(Math.floor((total - 1) / limit) * limit, Math.floor(maxOffset / limit) * limit) : 0;
  const hasNext = offset + shown < total && offset + limit <= lastOffset;
  const hasPrevious = offset > 0;
  const ceilingReached = offset + shown < total && !hasNext;
  return (
    <nav aria-label={p.label} className="flex flex-wrap items-center justify-between gap-3 text-sm" data-testid="table-pagination">
      <div className="flex items-center gap-2 text-muted">
        <span data-testid="table-range" aria-live="polite">
          {total === 0 ? p.none : p.range(number.format(offset + 1), number.format(offset + shown), number.format(total))}
          {filtered ? ` ${p.unfiltered(number.format(totalUnfiltered))}` : null}
        </span>
        {busy ? <Spinner className="size-3.5" /> : null}
      </div>
      <div className="flex items-center gap-3">
        <label className="flex items-center gap-2 text-muted">
          <span className="whitespace-nowrap">{p.pageSize}</span>
          <Select
            controlSize="sm"
            className="w-20"
            value={limit}
            onChange={(event) => onLimit(Number(event.target.value))}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </Select>
        </label>
        <div className="flex gap-1">
          <Button size="icon" aria-label={p.first} disabled={!hasPrevious} onClick={() => onOffset(0)}>
            <ChevronsLeftIcon />
          </Button>
          <Button size="icon" aria-label={p.previous} disabled={!hasPrevious} onClick={() => onOffset(Math.max(0, offset - limit))}>
            <ChevronLeftIcon />
          </Button>
          <Button size="icon" aria-label={p.next} disabled={!hasNext} onClick={() => onOffset(offset + limit)}>
            <ChevronRightIcon />
          </Button>
          <Button size="icon" aria-label={p.last} disabled={!hasNext} onClick={() => onOffset(lastOffset)}>
            <ChevronsRightIcon />
          </Button>
        </div>
      </div>
      {ceilingReached ? <p className="w-full text-xs text-muted">{p.offsetCeiling(number.format(maxOffset + limit))}</p> : null}
    </nav>
  );
}
