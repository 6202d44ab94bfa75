'use client';

/** The data grid's sticky header row: the select-all checkbox, then one header per visible column. */
import type { Table as GridTable } from '@tanstack/react-table';
import { useI18n } from '@/app/i18n/client';
import type { Column, Row } from '../_lib/api';
import { defaultWidth } from '../_lib/cells';
import type { GridProps } from './grid-model';
import { HeaderCell } from './grid-column-header';
import { headerHeight, selectWidth } from './grid-model';

export function GridHeaderRow({
  grid,
  dataColumns,
  rowCount,
  selectedOnPage,
  allSelected,
  totalWidth,
  tabStop,
  activate,
  focusCell,
  ...props
}: {
  grid: GridTable<Row>;
  dataColumns: Column[];
  rowCount: number;
  selectedOnPage: number;
  allSelected: boolean;
  totalWidth: number;
  tabStop: (row: number, col: number) => number;
  activate: (row: number, col: number) => () => void;
  focusCell: (position: { row: number; col: number }) => void;
} & Pick<GridProps, 'isAdmin' | 'sort' | 'hidden' | 'onHiddenChange' | 'onSort' | 'onFilterColumn' | 'onEditColumn' | 'onRemoveColumn' | 'onMoveColumn'>) {
  const { t } = useI18n();
  const { isAdmin, sort, hidden } = props;
  const headers = grid.getFlatHeaders();
  const resizeOf = (column: Column) => {
    const header = headers.find((candidate) => candidate.column.id === column.key);
    return {
      start: header?.getResizeHandler() ?? (() => {}),
      reset: () => header?.column.resetSize(),
      active: header?.column.getIsResizing() ?? false,
    };
  };
  return (
    <div role="rowgroup" className="sticky top-0 z-[3]" style={{ width: totalWidth, minWidth: '100%' }}>
      <div role="row" aria-rowindex={1} className="flex border-b border-line bg-subtle" style={{ height: headerHeight }}>
        <div
          role="columnheader"
          aria-colindex={1}
          className="sticky left-0 z-[2] flex shrink-0 items-center gap-2 border-r border-line bg-subtle px-3"
          style={{ width: selectWidth }}
        >
          <input
            type="checkbox"
            data-pos="-1:0"
            tabIndex={tabStop(-1, 0)}
            onFocus={activate(-1, 0)}
            aria-label={t.tables.grid.selectAll}
            className="size-4 accent-[var(--brand)]"
            checked={allSelected}
            ref={(element) => {
              if (element) element.indeterminate = selectedOnPage > 0 && !allSelected;
            }}
            disabled={rowCount === 0}
            onChange={(event) => grid.toggleAllRowsSelected(event.target.checked)}
          />
          <span className="text-xs font-medium text-muted" aria-hidden="true">
            #
          </span>
        </div>
        {dataColumns.map((column, index) => (
          <HeaderCell
            key={column.key}
            column={column}
            col={index + 1}
            width={grid.getColumn(column.key)?.getSize() ?? defaultWidth(column.type)}
            resize={resizeOf(column)}
            isFirst={index === 0}
            isLast={index === dataColumns.length - 1}
            isAdmin={isAdmin}
            sortDir={sort?.key === column.key ? sort.dir : null}
            tabIndex={tabStop(-1, index + 1)}
            onFocus={activate(-1, index + 1)}
            onArrowDown={() => focusCell({ row: rowCount ? 0 : -1, col: index + 1 })}
            onSort={props.onSort}
            onFilterColumn={props.onFilterColumn}
            onEditColumn={props.onEditColumn}
            onRemoveColumn={props.onRemoveColumn}
            onMoveColumn={props.onMoveColumn}
            onHide={() => props.onHiddenChange({ ...hidden, [column.key]: false })}
          />
        ))}
        <div className="flex-1" aria-hidden="true" />
      </div>
    </div>
  );
}
