'use client';

/**
 * The rows of one page in a spreadsheet-like grid: TanStack Table for the row model, column
 * visibility, selection and sort state; TanStack Virtual so a 500-row page renders only what is on
 * screen. ARIA grid pattern: one tab stop, arrow keys between cells (the header row included), Enter or
 * typing edits, Escape cancels, Delete clears. Cells save one at a time through rows.update; a refused
 * value stays in the cell with the service's reason under it until it is fixed or cancelled.
 */
import type { KeyboardEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Column } from '../_lib/api';
import { defaultWidth } from '../_lib/cells';
import { GridBodyRow } from './grid-body-row';
import { GridHeaderRow } from './grid-header-row';
import type { GridProps } from './grid-model';
import { useCellEditing } from './use-cell-editing';
import { useGridNavigation } from './use-grid-navigation';
import { useVirtualGrid } from './use-virtual-grid';

export type { GridProps } from './grid-model';

export function DataGrid(props: GridProps) {
  const { table, offset, total, busy } = props;
  const { t } = useI18n();
  const { scrollRef, grid, dataColumns, modelRows, columnCount, totalWidth, virtualizer } = useVirtualGrid(props);
  const navigation = useGridNavigation({ rowCount: modelRows.length, columnCount, offset, scrollRef, virtualizer });
  const { active, activeRef, focusCell, tabStop, activate } = navigation;
  const cells = useCellEditing({ table, modelRows, dataColumns, columnCount, activeRef, focusCell, onAnnounce: props.onAnnounce });

  function onGridKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (cells.editing) return;
    const target = event.target as HTMLElement;
    const pos = target.closest<HTMLElement>('[data-pos]')?.dataset.pos;
    if (!pos) return;
    const [row, col] = pos.split(':').map(Number);
    if (navigation.moveByKey(event, row, col)) return;
    cells.onCellKeyDown(event, row, col);
  }

  const selectedOnPage = modelRows.filter((row) => row.getIsSelected()).length;
  const allSelected = modelRows.length > 0 && selectedOnPage === modelRows.length;

  const virtualRows = virtualizer.getVirtualItems();
  const columnWidth = (column: Column) => grid.getColumn(column.key)?.getSize() ?? defaultWidth(column.type);

  return (
    <div className="relative">
      <div
        ref={scrollRef}
        role="grid"
        aria-label={t.tables.grid.label(table.name)}
        aria-rowcount={total + 1}
        aria-colcount={columnCount}
        aria-multiselectable="true"
        aria-busy={busy || undefined}
        aria-describedby="grid-keyboard-hint"
        data-testid="table-grid"
        onKeyDown={onGridKeyDown}
        className="relative max-h-[calc(100dvh-19rem)] overflow-auto rounded-lg border border-line bg-surface shadow-xs"
      >
        {/* Header */}
        <GridHeaderRow
          grid={grid}
          dataColumns={dataColumns}
          rowCount={modelRows.length}
          selectedOnPage={selectedOnPage}
          allSelected={allSelected}
          totalWidth={totalWidth}
          tabStop={tabStop}
          activate={activate}
          focusCell={focusCell}
          isAdmin={props.isAdmin}
          sort={props.sort}
          hidden={props.hidden}
          onHiddenChange={props.onHiddenChange}
          onSort={props.onSort}
          onFilterColumn={props.onFilterColumn}
          onEditColumn={props.onEditColumn}
          onRemoveColumn={props.onRemoveColumn}
          onMoveColumn={props.onMoveColumn}
        />

        {/* Body */}
        <div
          role="rowgroup"
          className="relative"
          // A single row leaves room under it for a cell's error message.
          style={{ height: virtualizer.getTotalSize() + (modelRows.length === 1 ? 30 : 0), width: totalWidth, minWidth: '100%' }}
        >
          {virtualRows.map((virtualRow) => {
            const model = modelRows[virtualRow.index];
            return (
              <GridBodyRow
                key={model.original.id}
                virtualRow={virtualRow}
                scrollMargin={virtualizer.options.scrollMargin}
                model={model}
                rowCount={modelRows.length}
                offset={offset}
                dataColumns={dataColumns}
                totalWidth={totalWidth}
                active={active}
                cells={cells}
                columnWidth={columnWidth}
                tabStop={tabStop}
                activate={activate}
              />
            );
          })}
        </div>
        {modelRows.length === 0 && props.empty ? <div className="sticky left-0 w-full max-w-full">{props.empty}</div> : null}
      </div>
      <p id="grid-keyboard-hint" className="sr-only">
        {t.tables.grid.keyboardHint}
      </p>
    </div>
  );
}
