'use client';

/** One column's header in the data grid, with its menu: sort, filter, hide and, for administrators, edit, move and remove. */
import { useRef } from 'react';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/app/ui/dropdown-menu';
import {
  ArrowDownIcon,
  ArrowLeftIcon,
  ArrowRightIcon,
  ArrowUpIcon,
  ChevronDownIcon,
  CloseIcon,
  EyeOffIcon,
  FilterIcon,
  KeyColumnIcon,
  PencilIcon,
  TrashIcon,
} from '@/app/ui/icons';
import type { Column, SortDir } from '../_lib/api';
import type { GridProps } from './grid-model';

export function HeaderCell({
  column,
  col,
  width,
  resize,
  isFirst,
  isLast,
  isAdmin,
  sortDir,
  tabIndex,
  onFocus,
  onArrowDown,
  onSort,
  onFilterColumn,
  onHide,
  onEditColumn,
  onRemoveColumn,
  onMoveColumn,
}: {
  column: Column;
  col: number;
  width: number;
  /** Dragging the header's right edge (a TanStack resize handler); double-click resets the width. */
  resize: { start: (event: unknown) => void; reset: () => void; active: boolean };
  isFirst: boolean;
  isLast: boolean;
  isAdmin: boolean;
  sortDir: SortDir | null;
  tabIndex: number;
  onFocus: () => void;
  onArrowDown: () => void;
  onHide: () => void;
} & Pick<GridProps, 'onSort' | 'onFilterColumn' | 'onEditColumn' | 'onRemoveColumn' | 'onMoveColumn'>) {
  const { t } = useI18n();
  // A menu item opening another panel keeps the focus from going back to the header.
  const keepFocus = useRef(false);
  return (
    <div
      role="columnheader"
      aria-colindex={col + 1}
      aria-sort={sortDir === 'asc' ? 'ascending' : sortDir === 'desc' ? 'descending' : undefined}
      className="relative flex shrink-0 border-r border-line"
      style={{ width }}
      title={column.description ?? undefined}
    >
      <DropdownMenu>
        <DropdownMenuTrigger
          data-pos={`-1:${col}`}
          tabIndex={tabIndex}
          onFocus={onFocus}
          onKeyDown={(event) => {
            // Arrow keys move between cells; Enter and Space open the menu.
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              if (event.key === 'ArrowDown') onArrowDown();
            }
          }}
          aria-label={t.tables.grid.columnMenu(column.label)}
          className="group flex h-full min-w-0 flex-1 items-center gap-1.5 px-3 text-left text-xs font-medium text-muted hover:bg-line/40 hover:text-fg focus-visible:-outline-offset-2 data-[state=open]:bg-line/40 data-[state=open]:text-fg"
        >
          {column.isKey ? <KeyColumnIcon size={13} className="shrink-0 text-brand-fg" /> : null}
          <span className={cn('truncate', column.type === 'number' && 'ml-auto')} data-testid={`column-header-${column.key}`}>
            {column.label}
          </span>
          {column.required ? (
            <span className="text-red-600 dark:text-red-400" title={t.tables.grid.requiredColumn}>
              *
            </span>
          ) : null}
          {sortDir ? (
            sortDir === 'asc' ? (
              <ArrowUpIcon size={13} className="shrink-0 text-brand-fg" />
            ) : (
              <ArrowDownIcon size={13} className="shrink-0 text-brand-fg" />
            )
          ) : null}
          <ChevronDownIcon size={13} className={cn('ml-auto shrink-0 opacity-50 group-hover:opacity-100', column.type === 'number' && 'ml-0')} />
        </DropdownMenuTrigger>
        <DropdownMenuContent
          align="start"
          onCloseAutoFocus={(event) => {
            if (keepFocus.current) event.preventDefault();
            keepFocus.current = false;
          }}
        >
          <DropdownMenuItem onSelect={() => onSort(column.key, 'asc')} disabled={sortDir === 'asc'}>
            <ArrowUpIcon />
            {t.tables.grid.sortAsc}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => onSort(column.key, 'desc')} disabled={sortDir === 'desc'}>
            <ArrowDownIcon />
            {t.tables.grid.sortDesc}
          </DropdownMenuItem>
          {sortDir ? (
            <DropdownMenuItem onSelect={() => onSort(column.key, null)}>
              <CloseIcon />
              {t.tables.grid.clearSort}
            </DropdownMenuItem>
          ) : null}
          <DropdownMenuSeparator />
          <DropdownMenuItem
            onSelect={() => {
              keepFocus.current = true;
              onFilterColumn(column);
            }}
          >
            <FilterIcon />
            {t.tables.grid.filterColumn}
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => {
              keepFocus.current = true;
              onHide();
            }}
          >
            <EyeOffIcon />
            {t.tables.grid.hideColumn}
          </DropdownMenuItem>
          {isAdmin ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                onSelect={() => {
                  keepFocus.current = true;
                  onEditColumn(column);
                }}
              >
                <PencilIcon />
                {t.tables.grid.editColumn}
              </DropdownMenuItem>
              <DropdownMenuItem disabled={isFirst} onSelect={() => onMoveColumn(column, -1)}>
                <ArrowLeftIcon />
                {t.tables.grid.moveLeft}
              </DropdownMenuItem>
              <DropdownMenuItem disabled={isLast} onSelect={() => onMoveColumn(column, 1)}>
                <ArrowRightIcon />
                {t.tables.grid.moveRight}
              </DropdownMenuItem>
              <DropdownMenuItem
                className="text-red-700 dark:text-red-400 [&_svg]:!text-current"
                onSelect={() => {
                  keepFocus.current = true;
                  onRemoveColumn(column);
                }}
              >
                <TrashIcon />
                {t.tables.grid.removeColumn}
              </DropdownMenuItem>
            </>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={t.tables.grid.resizeColumn(column.label)}
        title={t.tables.grid.resizeHint}
        data-testid={`column-resize-${column.key}`}
        onMouseDown={resize.start}
        onTouchStart={resize.start}
        onDoubleClick={resize.reset}
        className={cn(
          'absolute top-0 -right-1 z-[1] h-full w-2 cursor-col-resize touch-none select-none after:absolute after:inset-y-1 after:left-[3px] after:w-0.5 after:rounded-full hover:after:bg-brand/50',
          resize.active && 'after:bg-brand',
        )}
      />
    </div>
  );
}
