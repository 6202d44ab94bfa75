'use client';

/** One row of the data grid, positioned by the virtualiser: its selection checkbox and row number, then its cells. */
import type { Row as ModelRow } from '@tanstack/react-table';
import type { VirtualItem } from '@tanstack/react-virtual';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { cn } from '@/app/ui/cn';
import type { Column, Row } from '../_lib/api';
import { GridCell } from './grid-cell';
import { cellId, rowHeight, selectWidth, type Position } from './grid-model';
import type { CellEditingState } from './use-cell-editing';

export function GridBodyRow({
  virtualRow,
  scrollMargin,
  model,
  rowCount,
  offset,
  dataColumns,
  totalWidth,
  active,
  cells,
  columnWidth,
  tabStop,
  activate,
}: {
  virtualRow: VirtualItem;
  scrollMargin: number;
  model: ModelRow<Row>;
  /** How many rows the page has. */
  rowCount: number;
  offset: number;
  dataColumns: Column[];
  totalWidth: number;
  active: Position;
  cells: CellEditingState;
  columnWidth: (column: Column) => number;
  tabStop: (row: number, col: number) => number;
  activate: (row: number, col: number) => () => void;
}) {
  const { t, locale } = useI18n();
  const { editing, drafts, setDraft } = cells;
  const record = model.original;
  const rowNumber = offset + virtualRow.index + 1;
  const selected = model.getIsSelected();
  const rowActive = active.row === virtualRow.index;
  const hasBubble = dataColumns.some((column, index) => {
    const draft = drafts[cellId(record.id, column.key)];
    return draft?.error && (rowActive && active.col === index + 1);
  });
  // Near the bottom the reason goes above the cell, where there is room inside the grid.
  const bubbleAbove = virtualRow.index > 0 && virtualRow.index >= rowCount - 2;
  return (
    <div
      role="row"
      aria-rowindex={rowNumber + 1}
      aria-selected={selected}
      data-testid="table-row"
      data-row-id={record.id}
      className={cn(
        'group/row absolute left-0 flex border-b border-line text-[13px]',
        selected ? 'bg-brand/5' : 'bg-surface hover:bg-subtle/50',
      )}
      style={{
        height: rowHeight,
        width: '100%',
        minWidth: totalWidth,
        transform: `translateY(${virtualRow.start - scrollMargin}px)`,
        zIndex: hasBubble || (editing?.rowId === record.id) ? 2 : undefined,
      }}
    >
      <div
        role="gridcell"
        aria-colindex={1}
        className={cn(
          'sticky left-0 z-[1] flex shrink-0 items-center gap-2 border-r border-line px-3',
          selected ? 'bg-[color-mix(in_oklab,var(--brand)_5%,var(--surface))]' : 'bg-surface group-hover/row:bg-subtle',
        )}
        style={{ width: selectWidth }}
      >
        <input
          type="checkbox"
          data-pos={`${virtualRow.index}:0`}
          tabIndex={tabStop(virtualRow.index, 0)}
          onFocus={activate(virtualRow.index, 0)}
          aria-label={t.tables.grid.selectRow(rowNumber)}
          className="size-4 accent-[var(--brand)]"
          checked={selected}
          onChange={model.getToggleSelectedHandler()}
        />
        <span
          className="truncate text-xs text-muted tabular-nums"
          aria-hidden="true"
          title={t.tables.grid.rowDates(formatDateTime(record.createdAt, locale), formatDateTime(record.updatedAt, locale))}
        >
          {rowNumber}
        </span>
      </div>
      {dataColumns.map((column, index) => {
        const id = cellId(record.id, column.key);
        const isEditing = editing !== null && editing.rowId === record.id && editing.key === column.key;
        const isActive = rowActive && active.col === index + 1;
        return (
          <GridCell
            key={column.key}
            column={column}
            row={record}
            rowNumber={rowNumber}
            col={index + 1}
            pos={`${virtualRow.index}:${index + 1}`}
            width={columnWidth(column)}
            draft={drafts[id]}
            isEditing={isEditing}
            isActive={isActive}
            bubbleAbove={bubbleAbove}
            tabIndex={tabStop(virtualRow.index, index + 1)}
            onActivate={activate(virtualRow.index, index + 1)}
            onStartEditing={() => cells.startEditing(record, column)}
            onToggle={() => cells.toggle(record, column)}
            onText={(text) => setDraft(id, { text, error: drafts[id]?.error ?? null, saving: false })}
            onCommit={(text, reason) => cells.commitEditor(record, column, text, reason)}
            onCancel={() => cells.cancelEditor(record, column)}
            caretAtEnd={editing?.caretAtEnd ?? false}
            locale={locale}
            t={t}
          />
        );
      })}
      <div className="flex-1" aria-hidden="true" />
    </div>
  );
}
