'use client';

/**
 * The rows of one page in a spreadsheet-like grid: TanStack Table for the row model, column
 * visibility, selection and sort state; TanStack Virtual so a 500-row page renders only what is on
 * screen. ARIA grid pattern: one tab stop, arrow keys between cells (the header row included), Enter or
 * typing edits, Escape cancels, Delete clears. Cells save one at a time through rows.update; a refused
 * value stays in the cell with the service's reason under it until it is fixed or cancelled.
 */
import { useMutation } from '@tanstack/react-query';
import {
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
  type Updater,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
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
import { Spinner } from '@/app/ui/spinner';
import { useTableMutations, useTablesCache, type CellValue, type Column, type Row, type SortDir, type Table } from '../_lib/api';
import { defaultWidth, displayCell, editorText, parseEditorText, sameCell } from '../_lib/cells';
import { CellEditor, type CommitReason } from './cell-editor';

const rowHeight = 36;
const headerHeight = 38;
const selectWidth = 84;

interface Draft {
  text: string;
  error: string | null;
  saving: boolean;
}

interface Position {
  /** -1 is the header row. */
  row: number;
  /** 0 is the selection column, then the visible columns. */
  col: number;
}

interface Editing {
  rowId: string;
  key: string;
  caretAtEnd: boolean;
}

const cellId = (rowId: string, key: string) => `${rowId}:${key}`;

/** The sentence explaining why the service refused a cell. */
function cellErrorText(error: unknown, columnKey: string, t: Dictionary): string {
  const info = appErrorOf(error);
  if (info?.code === 'tables.invalid_cells') {
    const problems = Array.isArray(info.details.problems) ? (info.details.problems as { column?: string; reason?: string; message?: string }[]) : [];
    const problem = problems.find((p) => p.column === columnKey) ?? problems[0];
    if (problem) {
      const translated = problem.reason ? (t.tables.problems as Record<string, string>)[problem.reason] : undefined;
      return translated ?? problem.message ?? describeError(error, t);
    }
  }
  if (info?.code === 'tables.duplicate_key') return t.tables.problems.duplicate_key;
  return describeError(error, t);
}

export interface GridProps {
  table: Table;
  rows: Row[];
  offset: number;
  total: number;
  isAdmin: boolean;
  sort: { key: string; dir: SortDir } | null;
  onSort: (key: string, dir: SortDir | null) => void;
  hidden: VisibilityState;
  onHiddenChange: (next: VisibilityState) => void;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onFilterColumn: (column: Column) => void;
  onEditColumn: (column: Column) => void;
  onRemoveColumn: (column: Column) => void;
  onMoveColumn: (column: Column, by: -1 | 1) => void;
  onAnnounce: (message: string) => void;
  busy: boolean;
  /** Shown under the header when the page has no rows. */
  empty?: ReactNode;
}

export function DataGrid(props: GridProps) {
  const { table, rows, offset, total, isAdmin, sort, hidden, selection, busy } = props;
  const { t, locale } = useI18n();
  const cache = useTablesCache();
  const mutations = useTableMutations();
  const updateRow = useMutation(mutations.updateRow);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState<Position>({ row: 0, col: 1 });
  const [editing, setEditingState] = useState<Editing | null>(null);
  // The editor in effect right now (state lags a render behind): a blur after Escape or Enter is ignored.
  const editingRef = useRef<Editing | null>(null);
  const setEditing = (next: Editing | null) => {
    editingRef.current = next;
    setEditingState(next);
  };
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  /** A cell to focus once it is rendered (a virtualised row may need a scroll first); expires. */
  const pendingFocus = useRef<{ position: Position; until: number } | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;

  const columnsByKey = useMemo(() => new Map(table.columns.map((column) => [column.key, column])), [table.columns]);

  const columnDefs = useMemo<ColumnDef<Row>[]>(
    () => [
      { id: '__select', size: selectWidth, enableHiding: false },
      ...table.columns.map((column) => ({
        id: column.key,
        accessorFn: (row: Row) => row.cells[column.key],
        size: column.width ?? defaultWidth(column.type),
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
    state: { columnVisibility: hidden, rowSelection: selection, sorting },
    onColumnVisibilityChange: (updater) => props.onHiddenChange(apply(updater, hidden)),
    onRowSelectionChange: (updater) => props.onSelectionChange(apply(updater, selection)),
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

  // Keep the active position inside the grid when rows or columns change.
  useEffect(() => {
    setActive((current) => {
      const row = modelRows.length === 0 ? -1 : Math.min(current.row, modelRows.length - 1);
      const col = Math.min(current.col, columnCount - 1);
      return row === current.row && col === current.col ? current : { row, col };
    });
  }, [modelRows.length, columnCount]);

  // A new page starts at its top.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [offset]);

  const focusCell = useCallback(
    (position: Position) => {
      pendingFocus.current = { position, until: Date.now() + 1500 };
      setActive(position);
      if (position.row >= 0) virtualizer.scrollToIndex(position.row, { align: 'auto' });
    },
    [virtualizer],
  );

  // After each render: focus the wanted cell if it is there now, and bring it into view sideways
  // (the selection column stays on the left, so the browser's own scrolling would hide cells under it).
  useLayoutEffect(() => {
    const wanted = pendingFocus.current;
    const container = scrollRef.current;
    if (!wanted || !container) return;
    if (Date.now() > wanted.until) {
      pendingFocus.current = null;
      return;
    }
    const target = container.querySelector<HTMLElement>(`[data-pos="${wanted.position.row}:${wanted.position.col}"]`);
    if (!target) return;
    pendingFocus.current = null;
    target.focus({ preventScroll: true });
    if (wanted.position.col > 0) {
      const cell = target.closest<HTMLElement>('[role="gridcell"], [role="columnheader"]') ?? target;
      const left = cell.offsetLeft;
      const right = left + cell.offsetWidth;
      if (left < container.scrollLeft + selectWidth) container.scrollLeft = left - selectWidth;
      else if (right > container.scrollLeft + container.clientWidth) container.scrollLeft = right - container.clientWidth;
    }
  });

  const setDraft = (id: string, draft: Draft | null) =>
    setDrafts((current) => {
      const next = { ...current };
      if (draft) next[id] = draft;
      else delete next[id];
      return next;
    });

  function startEditing(row: Row, column: Column, typed?: string) {
    const id = cellId(row.id, column.key);
    if (drafts[id]?.saving) return;
    if (column.type === 'boolean') {
      toggle(row, column);
      return;
    }
    if (typed !== undefined) setDraft(id, { text: typed, error: drafts[id]?.error ?? null, saving: false });
    else if (!drafts[id]) setDraft(id, { text: editorText(column, row.cells[column.key]), error: null, saving: false });
    setEditing({ rowId: row.id, key: column.key, caretAtEnd: typed !== undefined || Boolean(drafts[id]?.error) });
  }

  async function save(row: Row, column: Column, text: string, reason: CommitReason | 'clear' | 'toggle', value?: CellValue | null) {
    const id = cellId(row.id, column.key);
    let next: CellValue | null;
    if (value !== undefined) next = value;
    else {
      const parsed = parseEditorText(column.type, text);
      if (!parsed.ok) {
        setDraft(id, { text, error: t.tables.problems[parsed.error], saving: false });
        return;
      }
      next = parsed.value;
    }
    if (sameCell(next, row.cells[column.key])) {
      setDraft(id, null);
      return;
    }
    setDraft(id, { text, error: null, saving: true });
    try {
      const { row: saved } = await updateRow.mutateAsync({ id: table.id, rowId: row.id, cells: { [column.key]: next } });
      cache.putRow(table.id, saved);
      setDraft(id, null);
      props.onAnnounce(t.tables.grid.saved(column.label));
    } catch (error) {
      const message = cellErrorText(error, column.key, t);
      setDraft(id, { text, error: message, saving: false });
      props.onAnnounce(`${column.label}: ${message}`);
      // Still on that cell: open the editor again with what was typed.
      const here = activeRef.current;
      const rowIndex = modelRows.findIndex((model) => model.original.id === row.id);
      const colIndex = dataColumns.findIndex((c) => c.key === column.key) + 1;
      if (reason === 'enter' && here.row === rowIndex && here.col === colIndex && column.type !== 'boolean') {
        setEditing({ rowId: row.id, key: column.key, caretAtEnd: true });
      }
    }
  }

  function toggle(row: Row, column: Column) {
    const current = drafts[cellId(row.id, column.key)];
    if (current?.saving) return;
    const value = row.cells[column.key] === true;
    void save(row, column, String(!value), 'toggle', !value);
  }

  function commitEditor(row: Row, column: Column, text: string, reason: CommitReason) {
    const current = editingRef.current;
    if (!current || current.rowId !== row.id || current.key !== column.key) return;
    const parsed = parseEditorText(column.type, text);
    if (!parsed.ok && reason !== 'blur') {
      // Not even sendable (a number that is not one): keep the editor open with the reason.
      setDraft(cellId(row.id, column.key), { text, error: t.tables.problems[parsed.error], saving: false });
      return;
    }
    setEditing(null);
    void save(row, column, text, reason);
    const rowIndex = modelRows.findIndex((model) => model.original.id === row.id);
    const colIndex = dataColumns.findIndex((c) => c.key === column.key) + 1;
    if (reason === 'tab') focusCell({ row: rowIndex, col: Math.min(colIndex + 1, columnCount - 1) });
    else if (reason === 'shiftTab') focusCell({ row: rowIndex, col: Math.max(colIndex - 1, 1) });
    else if (reason !== 'blur') focusCell({ row: rowIndex, col: colIndex });
  }

  function cancelEditor(row: Row, column: Column) {
    if (!editingRef.current) return;
    setEditing(null);
    setDraft(cellId(row.id, column.key), null);
    const rowIndex = modelRows.findIndex((model) => model.original.id === row.id);
    focusCell({ row: rowIndex, col: dataColumns.findIndex((c) => c.key === column.key) + 1 });
  }

  function onGridKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (editing) return;
    const target = event.target as HTMLElement;
    const pos = target.closest<HTMLElement>('[data-pos]')?.dataset.pos;
    if (!pos) return;
    const [row, col] = pos.split(':').map(Number);
    const lastRow = modelRows.length - 1;
    const lastCol = columnCount - 1;
    const move = (next: Position) => {
      event.preventDefault();
      focusCell({ row: Math.max(-1, Math.min(lastRow, next.row)), col: Math.max(0, Math.min(lastCol, next.col)) });
    };
    switch (event.key) {
      case 'ArrowUp':
        return move({ row: row - 1, col });
      case 'ArrowDown':
        return move({ row: row + 1, col });
      case 'ArrowLeft':
        return move({ row, col: col - 1 });
      case 'ArrowRight':
        return move({ row, col: col + 1 });
      case 'Home':
        return move(event.ctrlKey ? { row: row < 0 ? -1 : 0, col: 0 } : { row, col: 0 });
      case 'End':
        return move(event.ctrlKey ? { row: lastRow, col: lastCol } : { row, col: lastCol });
      case 'PageUp':
        return move({ row: Math.max(row < 0 ? -1 : 0, row - 10), col });
      case 'PageDown':
        return move({ row: row + 10, col });
      default:
        break;
    }
    if (row < 0 || col < 1) return;
    const model = modelRows[row];
    const column = dataColumns[col - 1];
    if (!model || !column) return;
    const record = model.original;
    const id = cellId(record.id, column.key);
    if (event.key === 'Enter' || event.key === 'F2' || (event.key === ' ' && column.type === 'boolean')) {
      event.preventDefault();
      startEditing(record, column);
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && !drafts[id]?.saving) {
      event.preventDefault();
      if (record.cells[column.key] !== undefined || drafts[id]) void save(record, column, '', 'clear', null);
    } else if (event.key === 'Escape' && drafts[id] && !drafts[id].saving) {
      event.preventDefault();
      setDraft(id, null);
    } else if (
      event.key.length === 1 &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey &&
      (column.type === 'text' || column.type === 'email' || column.type === 'number')
    ) {
      event.preventDefault();
      startEditing(record, column, event.key);
    }
  }

  const selectedOnPage = modelRows.filter((row) => row.getIsSelected()).length;
  const allSelected = modelRows.length > 0 && selectedOnPage === modelRows.length;

  const virtualRows = virtualizer.getVirtualItems();
  const tabStop = (row: number, col: number) => (active.row === row && active.col === col ? 0 : -1);
  const activate = (row: number, col: number) => () => {
    if (active.row !== row || active.col !== col) setActive({ row, col });
  };

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
                disabled={modelRows.length === 0}
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
                isFirst={index === 0}
                isLast={index === dataColumns.length - 1}
                isAdmin={isAdmin}
                sortDir={sort?.key === column.key ? sort.dir : null}
                tabIndex={tabStop(-1, index + 1)}
                onFocus={activate(-1, index + 1)}
                onArrowDown={() => focusCell({ row: modelRows.length ? 0 : -1, col: index + 1 })}
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

        {/* Body */}
        <div
          role="rowgroup"
          className="relative"
          // A single row leaves room under it for a cell's error message.
          style={{ height: virtualizer.getTotalSize() + (modelRows.length === 1 ? 30 : 0), width: totalWidth, minWidth: '100%' }}
        >
          {virtualRows.map((virtualRow) => {
            const model = modelRows[virtualRow.index];
            const record = model.original;
            const rowNumber = offset + virtualRow.index + 1;
            const selected = model.getIsSelected();
            const rowActive = active.row === virtualRow.index;
            const hasBubble = dataColumns.some((column, index) => {
              const draft = drafts[cellId(record.id, column.key)];
              return draft?.error && (rowActive && active.col === index + 1);
            });
            // Near the bottom the reason goes above the cell, where there is room inside the grid.
            const bubbleAbove = virtualRow.index > 0 && virtualRow.index >= modelRows.length - 2;
            return (
              <div
                key={record.id}
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
                  transform: `translateY(${virtualRow.start - virtualizer.options.scrollMargin}px)`,
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
                      width={grid.getColumn(column.key)?.getSize() ?? defaultWidth(column.type)}
                      draft={drafts[id]}
                      isEditing={isEditing}
                      isActive={isActive}
                      bubbleAbove={bubbleAbove}
                      tabIndex={tabStop(virtualRow.index, index + 1)}
                      onActivate={activate(virtualRow.index, index + 1)}
                      onStartEditing={() => startEditing(record, column)}
                      onToggle={() => toggle(record, column)}
                      onText={(text) => setDraft(id, { text, error: drafts[id]?.error ?? null, saving: false })}
                      onCommit={(text, reason) => commitEditor(record, column, text, reason)}
                      onCancel={() => cancelEditor(record, column)}
                      caretAtEnd={editing?.caretAtEnd ?? false}
                      locale={locale}
                      t={t}
                    />
                  );
                })}
                <div className="flex-1" aria-hidden="true" />
              </div>
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

function HeaderCell({
  column,
  col,
  width,
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
      className="flex shrink-0 border-r border-line"
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
    </div>
  );
}

function GridCell({
  column,
  row,
  rowNumber,
  col,
  pos,
  width,
  draft,
  isEditing,
  isActive,
  bubbleAbove,
  tabIndex,
  caretAtEnd,
  onActivate,
  onStartEditing,
  onToggle,
  onText,
  onCommit,
  onCancel,
  locale,
  t,
}: {
  column: Column;
  row: Row;
  rowNumber: number;
  col: number;
  pos: string;
  width: number;
  draft: Draft | undefined;
  isEditing: boolean;
  isActive: boolean;
  bubbleAbove: boolean;
  tabIndex: number;
  caretAtEnd: boolean;
  onActivate: () => void;
  onStartEditing: () => void;
  onToggle: () => void;
  onText: (text: string) => void;
  onCommit: (text: string, reason: CommitReason) => void;
  onCancel: () => void;
  locale: ReturnType<typeof useI18n>['locale'];
  t: Dictionary;
}) {
  const value = row.cells[column.key];
  const errorId = `cell-error-${row.id}-${column.key}`;
  const label = t.tables.grid.editCell(column.label, rowNumber);
  const showBubble = Boolean(draft?.error) && (isActive || isEditing);

  let content: React.ReactNode;
  if (column.type === 'boolean') {
    content = (
      <input
        type="checkbox"
        tabIndex={-1}
        aria-hidden="true"
        className={cn('size-4 accent-[var(--brand)]', value === undefined && !draft?.saving && 'opacity-40')}
        checked={draft?.saving ? draft.text === 'true' : value === true}
        disabled={draft?.saving}
        onChange={onToggle}
        onMouseDown={(event: MouseEvent) => event.preventDefault()}
        onClick={(event: MouseEvent<HTMLInputElement>) => event.currentTarget.closest<HTMLElement>('[role="gridcell"]')?.focus()}
      />
    );
  } else if (draft && !isEditing) {
    content = <span className={cn('truncate', draft.error && 'text-red-700 dark:text-red-400')}>{draft.text || '\u00a0'}</span>;
  } else if (column.type === 'select' && value !== undefined && value !== '') {
    content = <span className="truncate rounded bg-subtle px-1.5 py-0.5 text-xs font-medium ring-1 ring-line-strong/60 ring-inset">{String(value)}</span>;
  } else {
    content = <span className="truncate">{displayCell(column, value, locale, t)}</span>;
  }

  return (
    <div
      role="gridcell"
      aria-colindex={col + 1}
      aria-readonly={false}
      aria-invalid={draft?.error ? true : undefined}
      aria-describedby={draft?.error ? errorId : undefined}
      aria-label={column.type === 'boolean' ? `${label}: ${value === true ? t.tables.values.yes : value === false ? t.tables.values.no : t.tables.values.empty}` : undefined}
      data-pos={pos}
      data-testid={`cell-${column.key}`}
      tabIndex={isEditing ? -1 : tabIndex}
      onFocus={onActivate}
      onClick={onActivate}
      onDoubleClick={() => column.type !== 'boolean' && !isEditing && onStartEditing()}
      className={cn(
        'relative flex shrink-0 items-center border-r border-line px-3 outline-none',
        'focus-visible:z-[1] focus-visible:shadow-[inset_0_0_0_2px_var(--brand)]',
        column.type === 'number' && 'justify-end tabular-nums',
        column.type === 'boolean' && 'justify-center',
        draft?.error && 'bg-red-50 shadow-[inset_0_0_0_1px_rgb(220_38_38/0.6)] dark:bg-red-950/40',
      )}
      style={{ width }}
    >
      {isEditing ? (
        <CellEditor
          column={column}
          text={draft?.text ?? editorText(column, value)}
          invalid={Boolean(draft?.error)}
          label={label}
          errorId={errorId}
          caretAtEnd={caretAtEnd}
          onText={onText}
          onCommit={onCommit}
          onCancel={onCancel}
        />
      ) : (
        content
      )}
      {draft?.saving ? (
        <span className="absolute top-1/2 right-1 -translate-y-1/2 text-muted" role="img" aria-label={t.tables.grid.saving}>
          <Spinner className="size-3" />
        </span>
      ) : null}
      {draft?.error ? (
        <span
          id={errorId}
          data-testid="cell-error"
          className={cn(
            'pointer-events-none absolute left-0 z-[3] w-max max-w-72 rounded-md bg-red-600 px-2 py-1 text-xs font-medium text-white shadow-lg dark:bg-red-500',
            bubbleAbove ? 'bottom-full mb-1' : 'top-full mt-1',
            showBubble ? 'block' : 'sr-only',
          )}
        >
          {draft.error}
        </span>
      ) : null}
    </div>
  );
}
