'use client';

/**
 * One table: its rows in the grid with search, filters, sort and offset pagination; adding, editing
 * and deleting rows; CSV import and export; and, for administrators, the structure and settings.
 */
import type { RowSelectionState, VisibilityState } from '@tanstack/react-table';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { errorCodeOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button, buttonClasses } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { cn } from '@/app/ui/cn';
import { ConfirmDialog } from '@/app/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/app/ui/dropdown-menu';
import { Select } from '@/app/ui/field';
import {
  ChevronLeftIcon,
  ChevronRightIcon,
  ChevronsLeftIcon,
  ChevronsRightIcon,
  CloseIcon,
  ColumnsIcon,
  DownloadIcon,
  PlusIcon,
  SearchIcon,
  SettingsIcon,
  KeyColumnIcon,
  TableIcon,
  TrashIcon,
  UploadIcon,
} from '@/app/ui/icons';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { Spinner } from '@/app/ui/spinner';
import { useMe } from '../../_shell/use-me';
import { useDeleteRows, useRows, useTable, useTablesCache, type Column, type FilterCondition, type Match, type SortDir, type Table } from '../_lib/api';
import { conditionsForColumns, describeCondition } from '../_lib/filters';
import { ColumnDialog, RemoveColumnDialog } from './column-dialog';
import { DataGrid } from './data-grid';
import { FilterBuilder } from './filter-builder';
import { ImportDialog } from './import-dialog';
import { RowDialog } from './row-dialog';
import { SettingsDialog } from './settings-dialog';
import { movedKeys, StructureDialog, useReorderColumns } from './structure-dialog';
import { maxOffset, pageSizes, useRowsParams, useViewState } from './use-view-state';

const searchDelayMs = 300;

function useNumberFormat() {
  const { locale } = useI18n();
  return useMemo(() => new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB'), [locale]);
}

/** Hidden columns per table, remembered in this browser. */
function useHiddenColumns(tableId: string) {
  const storageKey = `mailflow:tables:${tableId}:hidden`;
  const [hidden, setHidden] = useState<VisibilityState>({});
  useEffect(() => {
    try {
      const stored = window.localStorage.getItem(storageKey);
      setHidden(stored ? (JSON.parse(stored) as VisibilityState) : {});
    } catch {
      setHidden({});
    }
  }, [storageKey]);
  const update = (next: VisibilityState) => {
    const compact = Object.fromEntries(Object.entries(next).filter(([, visible]) => visible === false));
    setHidden(compact);
    try {
      window.localStorage.setItem(storageKey, JSON.stringify(compact));
    } catch {
      // private mode: remembered for this visit only
    }
  };
  return [hidden, update] as const;
}

function Pagination({
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

function SearchBox({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  const last = useRef(value);
  const changed = useRef(onChange);
  changed.current = onChange;

  // The address or a "clear" elsewhere changed the search: show it.
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text === last.current) return;
    const timer = setTimeout(() => {
      last.current = text;
      changed.current(text);
    }, searchDelayMs);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div className="relative w-full sm:w-64">
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" />
      <input
        type="search"
        role="searchbox"
        aria-label={t.tables.toolbar.search}
        placeholder={t.tables.toolbar.searchPlaceholder}
        data-testid="table-search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            last.current = text;
            onChange(text);
          } else if (event.key === 'Escape' && text) {
            event.preventDefault();
            setText('');
            last.current = '';
            onChange('');
          }
        }}
        className="block h-9 w-full rounded-md border border-line-strong bg-surface pr-8 pl-8 text-sm shadow-xs placeholder:text-muted/70 focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand/30 [&::-webkit-search-cancel-button]:hidden"
      />
      {text ? (
        <button
          type="button"
          aria-label={t.tables.toolbar.clearSearch}
          className="absolute top-1/2 right-1.5 flex size-6 -translate-y-1/2 items-center justify-center rounded text-muted hover:bg-subtle hover:text-fg"
          onClick={() => {
            setText('');
            last.current = '';
            onChange('');
          }}
        >
          <CloseIcon size={14} />
        </button>
      ) : null}
    </div>
  );
}

function ColumnsMenu({ columns, hidden, onChange }: { columns: Column[]; hidden: VisibilityState; onChange: (next: VisibilityState) => void }) {
  const { t } = useI18n();
  const hiddenCount = columns.filter((column) => hidden[column.key] === false).length;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button aria-label={hiddenCount ? t.tables.toolbar.columnsHidden(hiddenCount) : undefined} disabled={columns.length === 0}>
          <ColumnsIcon />
          {t.tables.toolbar.columns}
          {hiddenCount ? <Badge tone="neutral">{hiddenCount}</Badge> : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-96 overflow-y-auto">
        <DropdownMenuLabel>{t.tables.toolbar.showColumns}</DropdownMenuLabel>
        {columns.map((column) => (
          <DropdownMenuCheckboxItem
            key={column.key}
            checked={hidden[column.key] !== false}
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={(checked) => onChange({ ...hidden, [column.key]: checked === true })}
          >
            <span className="truncate">{column.label}</span>
          </DropdownMenuCheckboxItem>
        ))}
        {hiddenCount ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => onChange({})}>{t.tables.toolbar.showAll}</DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function FilterChips({
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

function GridMessage({ icon, title, body, action }: { icon?: ReactNode; title: string; body?: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center" data-testid="grid-empty">
      {icon ? <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-brand/10 text-brand-fg">{icon}</div> : null}
      <h3 className="text-sm font-semibold">{title}</h3>
      {body ? <p className="mt-1 max-w-sm text-sm text-muted">{body}</p> : null}
      {action ? <div className="mt-4 flex flex-wrap justify-center gap-2">{action}</div> : null}
    </div>
  );
}

function TableWorkspace({ table, isAdmin }: { table: Table; isAdmin: boolean }) {
  const { t } = useI18n();
  const number = useNumberFormat();
  const cache = useTablesCache();
  const { state, update } = useViewState();
  const [hidden, setHidden] = useHiddenColumns(table.id);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [filterOpen, setFilterOpen] = useState(false);
  const [filterSeed, setFilterSeed] = useState<Column | null>(null);
  const [rowDialogOpen, setRowDialogOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [structureOpen, setStructureOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [columnDialog, setColumnDialog] = useState<{ open: boolean; column: Column | null }>({ open: false, column: null });
  const [removing, setRemoving] = useState<Column | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const deleteRows = useDeleteRows();
  const reorder = useReorderColumns(table);

  // The rows' own dates filter like date-time columns.
  const filterColumns = useMemo<Column[]>(() => {
    const dates = (['createdAt', 'updatedAt'] as const).map((key) => ({
      key,
      label: t.tables.filter[key],
      type: 'datetime' as const,
      isKey: false,
      required: false,
      options: [],
      width: null,
      description: null,
    }));
    return [...table.columns, ...dates];
  }, [table.columns, t]);
  // Conditions and sort on columns that no longer exist are dropped.
  const filters = useMemo(() => conditionsForColumns(state.filters, filterColumns), [state.filters, filterColumns]);
  const sortKey = state.sort && table.columns.some((column) => column.key === state.sort) ? state.sort : null;
  const view = useMemo(() => ({ ...state, filters, sort: sortKey }), [state, filters, sortKey]);
  const params = useRowsParams(table.id, view);
  const rows = useRows(table.columns.length > 0 ? params : null);
  const filtered = Boolean(view.q.trim()) || filters.length > 0;

  // A new page, search or filter starts with nothing selected.
  const paramsText = JSON.stringify(params);
  useEffect(() => setSelection({}), [paramsText]);

  // Rows removed elsewhere: the page asked for is past the end; go to the last one.
  const outOfRange = rows.isError && errorCodeOf(rows.error) === 'tables.page_out_of_range';
  useEffect(() => {
    if (outOfRange) update({ offset: 0 });
  }, [outOfRange, update]);
  useEffect(() => {
    const data = rows.data;
    if (!data || rows.isPlaceholderData) return;
    if (data.total > 0 && view.offset >= data.total) update({ offset: Math.floor((data.total - 1) / view.limit) * view.limit });
  }, [rows.data, rows.isPlaceholderData, view.offset, view.limit, update]);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 6000);
    return () => clearTimeout(timer);
  }, [notice]);

  const selectedIds = Object.keys(selection).filter((id) => selection[id]);
  const keyColumn = table.columns.find((column) => column.isKey);
  const visibleColumns = table.columns.filter((column) => hidden[column.key] !== false);

  function openFilter(seed: Column | null) {
    setFilterSeed(seed);
    setFilterOpen(true);
  }

  function onMoveColumn(column: Column, by: -1 | 1) {
    const keys = movedKeys(table, column.key, by);
    if (keys) reorder.mutate({ id: table.id, keys });
  }

  const emptyGrid =
    rows.data && rows.data.totalUnfiltered === 0 ? (
      <GridMessage
        icon={<TableIcon size={18} />}
        title={t.tables.grid.noRows.title}
        body={t.tables.grid.noRows.body}
        action={
          <>
            <Button onClick={() => setImportOpen(true)}>
              <UploadIcon />
              {t.tables.page.importCsv}
            </Button>
            <Button variant="primary" onClick={() => setRowDialogOpen(true)}>
              <PlusIcon />
              {t.tables.page.addRow}
            </Button>
          </>
        }
      />
    ) : (
      <GridMessage
        icon={<SearchIcon size={18} />}
        title={t.tables.grid.noMatch.title}
        body={t.tables.grid.noMatch.body}
        action={<Button onClick={() => update({ q: '', filters: [] })}>{t.tables.grid.noMatch.clear}</Button>}
      />
    );

  return (
    <>
      <header className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h1 className="text-xl font-semibold tracking-tight">{table.name}</h1>
          {table.description ? <p className="max-w-2xl text-sm text-muted">{table.description}</p> : null}
          <p className="text-xs text-muted" data-testid="table-meta">
            <code className="font-mono">{table.slug}</code> · {t.tables.columnCount(table.columns.length)} ·{' '}
            {t.tables.rowCount(table.rowCount, number.format(table.rowCount))}
            {keyColumn ? (
              <>
                {' · '}
                <span className="inline-flex items-center gap-1">
                  <KeyColumnIcon size={12} className="text-brand-fg" />
                  {keyColumn.label}
                </span>
              </>
            ) : null}
          </p>
        </div>
        {isAdmin ? (
          <div className="flex shrink-0 gap-2">
            <Button onClick={() => setStructureOpen(true)} data-testid="open-structure">
              <ColumnsIcon />
              {t.tables.page.structure}
            </Button>
            <Button onClick={() => setSettingsOpen(true)} data-testid="open-settings">
              <SettingsIcon />
              {t.tables.page.settings}
            </Button>
          </div>
        ) : null}
      </header>

      {table.columns.length === 0 ? (
        <Card>
          <GridMessage
            icon={<ColumnsIcon size={18} />}
            title={t.tables.grid.noColumns.title}
            body={isAdmin ? t.tables.grid.noColumns.bodyAdmin : t.tables.grid.noColumns.bodyMember}
            action={
              isAdmin ? (
                <Button variant="primary" onClick={() => setColumnDialog({ open: true, column: null })}>
                  <PlusIcon />
                  {t.tables.grid.noColumns.add}
                </Button>
              ) : null
            }
          />
        </Card>
      ) : (
        <div className="space-y-3">
          {/* Toolbar */}
          <div className="flex flex-wrap items-center justify-between gap-2">
            {selectedIds.length > 0 ? (
              <div className="flex flex-wrap items-center gap-2 rounded-md bg-brand/5 py-0.5 pr-1 pl-3 ring-1 ring-brand/20" data-testid="selection-bar">
                <span className="text-sm font-medium">{t.tables.toolbar.selected(selectedIds.length)}</span>
                <Button size="sm" variant="dangerGhost" onClick={() => setConfirmDelete(true)}>
                  <TrashIcon />
                  {t.tables.toolbar.deleteSelected}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setSelection({})}>
                  {t.tables.toolbar.clearSelection}
                </Button>
              </div>
            ) : (
              <div className="flex flex-wrap items-center gap-2">
                <SearchBox value={view.q} onChange={(q) => update({ q })} />
                <FilterBuilder
                  columns={filterColumns}
                  conditions={filters}
                  match={view.match}
                  open={filterOpen}
                  seed={filterSeed}
                  onOpenChange={(open) => {
                    setFilterOpen(open);
                    if (!open) setFilterSeed(null);
                  }}
                  onApply={(next, match) => update({ filters: next, match })}
                />
                <ColumnsMenu columns={table.columns} hidden={hidden} onChange={setHidden} />
              </div>
            )}
            <div className="flex flex-wrap items-center gap-2">
              <Button onClick={() => setImportOpen(true)}>
                <UploadIcon />
                {t.tables.page.importCsv}
              </Button>
              <a href={`/api/v1/tables/${encodeURIComponent(table.id)}/export.csv`} download={`${table.slug}.csv`} className={buttonClasses('secondary')} title={t.tables.page.exportHint} data-testid="export-csv">
                <DownloadIcon />
                {t.tables.page.exportCsv}
              </a>
              <Button variant="primary" onClick={() => setRowDialogOpen(true)} data-testid="add-row">
                <PlusIcon />
                {t.tables.page.addRow}
              </Button>
            </div>
          </div>

          <FilterChips
            conditions={filters}
            match={view.match}
            columns={filterColumns}
            onRemove={(index) => update({ filters: filters.filter((_, i) => i !== index) })}
            onClear={() => update({ filters: [] })}
            onOpen={() => openFilter(null)}
          />

          {reorder.isError ? (
            <Alert tone="danger" testId="reorder-error" action={<Button size="sm" variant="ghost" onClick={() => reorder.reset()}>{t.common.close}</Button>}>
              {describeError(reorder.error, t)}
            </Alert>
          ) : null}

          {rows.isPending && !rows.data ? (
            <LoadingState rows={8} label={t.tables.grid.loading} />
          ) : rows.isError && !outOfRange ? (
            <ErrorState error={rows.error} onRetry={() => rows.refetch()} testId="rows-error" />
          ) : rows.data ? (
            <>
              <div className="relative">
                {rows.isFetching ? (
                  <div className="absolute inset-x-0 top-0 z-10 h-0.5 overflow-hidden rounded-t-lg" role="presentation">
                    <div className="h-full w-1/3 animate-pulse bg-brand" />
                  </div>
                ) : null}
                {visibleColumns.length === 0 ? (
                  <Card>
                    <GridMessage title={t.tables.grid.allHidden} action={<Button onClick={() => setHidden({})}>{t.tables.toolbar.showAll}</Button>} />
                  </Card>
                ) : (
                  <DataGrid
                    table={table}
                    rows={rows.data.rows}
                    offset={rows.data.offset}
                    total={rows.data.total}
                    isAdmin={isAdmin}
                    sort={sortKey ? { key: sortKey, dir: view.dir } : null}
                    onSort={(key: string, dir: SortDir | null) => update(dir ? { sort: key, dir } : { sort: null, dir: 'asc' })}
                    hidden={hidden}
                    onHiddenChange={setHidden}
                    selection={selection}
                    onSelectionChange={setSelection}
                    onFilterColumn={(column) => openFilter(column)}
                    onEditColumn={(column) => setColumnDialog({ open: true, column })}
                    onRemoveColumn={setRemoving}
                    onMoveColumn={onMoveColumn}
                    onAnnounce={setAnnouncement}
                    busy={rows.isFetching}
                    empty={rows.data.rows.length === 0 ? emptyGrid : null}
                  />
                )}
              </div>
              <div className={cn('flex flex-wrap items-start justify-between gap-x-4 gap-y-2', rows.data.total === 0 && 'hidden')}>
                <Pagination
                  offset={rows.data.offset}
                  limit={view.limit}
                  shown={rows.data.rows.length}
                  total={rows.data.total}
                  totalUnfiltered={rows.data.totalUnfiltered}
                  filtered={filtered}
                  busy={rows.isFetching}
                  onOffset={(offset) => update({ offset })}
                  onLimit={(limit) => update({ limit, offset: Math.floor(view.offset / limit) * limit })}
                />
              </div>
            </>
          ) : null}
          <p className="text-xs text-muted" aria-hidden="true">
            {t.tables.grid.keyboardHint}
          </p>
        </div>
      )}

      <div role="status" aria-live="polite" className="sr-only">
        {announcement}
      </div>
      {notice ? (
        <div className="fixed right-4 bottom-4 z-30 max-w-sm" data-testid="table-notice">
          <Alert tone="success" testId="table-notice-alert" live="status" action={<Button size="sm" variant="ghost" aria-label={t.common.close} onClick={() => setNotice(null)}><CloseIcon /></Button>}>
            {notice}
          </Alert>
        </div>
      ) : null}

      <RowDialog
        table={table}
        open={rowDialogOpen}
        onOpenChange={setRowDialogOpen}
        onAdded={() => setNotice(t.tables.rowDialog.added)}
      />
      <ImportDialog table={table} open={importOpen} onOpenChange={setImportOpen} />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={(open) => {
          if (!open && !deleteRows.isPending) {
            deleteRows.reset();
            setConfirmDelete(false);
          }
        }}
        title={t.tables.deleteRows.title(selectedIds.length)}
        description={t.tables.deleteRows.body}
        confirmLabel={deleteRows.isPending ? t.tables.deleteRows.deleting : t.tables.deleteRows.confirm}
        pending={deleteRows.isPending}
        error={
          deleteRows.isError ? (
            <Alert tone="danger" testId="delete-rows-error">
              {describeError(deleteRows.error, t)}
            </Alert>
          ) : null
        }
        onConfirm={() =>
          deleteRows.mutate(
            { id: table.id, operations: selectedIds.map((id) => ({ op: 'delete' as const, id })) },
            {
              onSuccess: async ({ results }) => {
                const remaining = (rows.data?.total ?? 0) - results.length;
                // The page may now be past the end: step back to the last one.
                if (view.offset > 0 && view.offset >= remaining) update({ offset: Math.max(0, Math.floor((remaining - 1) / view.limit) * view.limit) });
                await Promise.all([cache.rows(table.id), cache.tables()]);
                setSelection({});
                setNotice(t.tables.deleteRows.deleted(results.length));
                deleteRows.reset();
                setConfirmDelete(false);
              },
            },
          )
        }
      />
      {isAdmin ? (
        <>
          <StructureDialog
            table={table}
            open={structureOpen}
            onOpenChange={setStructureOpen}
            onAdd={() => setColumnDialog({ open: true, column: null })}
            onEdit={(column) => setColumnDialog({ open: true, column })}
            onRemove={setRemoving}
          />
          <ColumnDialog
            table={table}
            open={columnDialog.open}
            column={columnDialog.column}
            onOpenChange={(open) => setColumnDialog((current) => ({ ...current, open }))}
          />
          <RemoveColumnDialog table={table} column={removing} onClose={() => setRemoving(null)} />
          <SettingsDialog table={table} open={settingsOpen} onOpenChange={setSettingsOpen} />
        </>
      ) : null}
    </>
  );
}

export function TableView({ tableRef }: { tableRef: string }) {
  const { t } = useI18n();
  const me = useMe();
  const table = useTable(tableRef);
  const isAdmin = me.data?.role === 'admin';

  const breadcrumb = (
    <nav aria-label={t.tables.page.breadcrumb} className="mb-2 text-sm">
      <Link href="/tables" className="inline-flex items-center gap-1 rounded text-muted hover:text-fg">
        <ChevronLeftIcon size={14} />
        {t.tables.page.allTables}
      </Link>
    </nav>
  );

  if (table.isPending) {
    return (
      <>
        {breadcrumb}
        <div className="mb-6 space-y-2" role="status">
          <span className="sr-only">{t.common.loading}</span>
          <div className="h-6 w-48 animate-pulse rounded bg-subtle" />
          <div className="h-3.5 w-72 animate-pulse rounded bg-subtle" />
        </div>
        <LoadingState rows={8} />
      </>
    );
  }

  if (table.isError) {
    return (
      <>
        {breadcrumb}
        {errorCodeOf(table.error) === 'tables.not_found' ? (
          <Card className="flex flex-col items-center px-6 py-16 text-center" data-testid="table-not-found">
            <div className="mb-4 flex size-11 items-center justify-center rounded-full bg-subtle text-muted">
              <TableIcon size={20} />
            </div>
            <h1 className="text-base font-semibold">{t.tables.page.notFound.title}</h1>
            <p className="mt-1 max-w-sm text-sm text-muted">{t.tables.page.notFound.body}</p>
            <Link href="/tables" className={cn(buttonClasses('secondary'), 'mt-5')}>
              {t.tables.page.notFound.back}
            </Link>
          </Card>
        ) : (
          <ErrorState error={table.error} onRetry={() => table.refetch()} testId="table-error" />
        )}
      </>
    );
  }

  return (
    <>
      {breadcrumb}
      <TableWorkspace key={table.data.table.id} table={table.data.table} isAdmin={isAdmin} />
    </>
  );
}
