'use client';

/**
 * The data grid's row and column model and its virtualisation: TanStack Table for the rows, column
 * visibility, selection and sort state; TanStack Virtual so only the rows on screen are rendered.
 */
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { Row } from '../_lib/api';
import { cellOf, defaultWidth } from '../_lib/cells';
import { headerHeight, rowHeight, selectWidth, type GridProps } from './grid-model';

type VirtualGridOptions = Pick<GridProps, 'table' | 'rows' | 'sort' | 'hidden' | 'onHiddenChange' | 'widths' | 'onWidthsChange' | 'selection' | 'onSelectionChange'>;

export function useVirtualGrid({ table, rows, sort, hidden, onHiddenChange, widths, onWidthsChange, selection, onSelectionChange }: VirtualGridOptions) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const columnsByKey = useMemo(() => new Map(table.columns.map((column) => [column.key, column])), [table.columns]);

  const columnDefs = useMemo<ColumnDef<Row>[]>(
    () => [
      { id: '__select', size: selectWidth, enableHiding: false, enableResizing: false },
      ...table.columns.map((column) => ({
        id: column.key,
        accessorFn: (row: Row) => cellOf(row.cells, column.key),
        size: column.width ?? defaultWidth(column.type),
        // The same bounds as a column's stored width.
        minSize: 80,
        maxSize: 800,
      })),
    ],
    [table.columns],
  );

  const sorting = useMemo<SortingState>(() => (sort ? [{ id: sort.key, desc: sort.dir === 'desc' }] : []), [sort]);
  const apply = <T,>(updater: Updater<T>, current: T): T => (typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater);

  const grid = useReactTable({
    data: rows,
    columns: columnDefs,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    enableRowSelection: true,
    enableColumnResizing: true,
    columnResizeMode: 'onChange',
    state: { columnVisibility: hidden, columnSizing: widths, rowSelection: selection, sorting },
    onColumnVisibilityChange: (updater) => onHiddenChange(apply(updater, hidden)),
    onColumnSizingChange: (updater) => onWidthsChange(apply(updater, widths)),
    onRowSelectionChange: (updater) => onSelectionChange(apply(updater, selection)),
  });

  const leafColumns = grid.getVisibleLeafColumns();
  const dataColumns = leafColumns.slice(1).map((leaf) => columnsByKey.get(leaf.id)!).filter(Boolean);
  const modelRows = grid.getRowModel().rows;
  const columnCount = dataColumns.length + 1;
  const totalWidth = leafColumns.reduce((sum, leaf) => sum + leaf.getSize(), 0);

  const virtualizer = useVirtualizer({
    count: modelRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
  });

  return { scrollRef, grid, dataColumns, modelRows, columnCount, totalWidth, virtualizer };
}
