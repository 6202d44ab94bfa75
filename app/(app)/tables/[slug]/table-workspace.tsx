'use client';

/**
 * One loaded table: its heading, the toolbar and filter chips, the grid with its pagination, the
 * announcements and notices, and the dialogs.
 */
import { useEffect, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { cn } from '@/app/ui/cn';
import { CloseIcon, ColumnsIcon, PlusIcon } from '@/app/ui/icons';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { exportHref, useTablesCache, type Column, type SortDir, type Table } from '../_lib/api';
import { DataGrid } from './data-grid';
import { FilterChips } from './filter-chips';
import { EmptyGridMessage, GridMessage } from './grid-message';
import { movedKeys, useReorderColumns } from './structure-dialog';
import { TableDialogs, useTableDialogs } from './table-dialogs';
import { TableHeader } from './table-header';
import { Pagination } from './table-pagination';
import { TableToolbar } from './table-toolbar';
import { useColumnWidths, useHiddenColumns } from './use-remembered-view';
import { useTableRows } from './use-table-rows';
import { ownValue } from '@/server/core/own-property';

export function TableWorkspace({ table, isAdmin }: { table: Table; isAdmin: boolean }) {
  const { t } = useI18n();
  const cache = useTablesCache();
  const { view, params, update, filterColumns, filters, sortKey, rows, filtered, outOfRange, selection, setSelection } = useTableRows(table);
  const [hidden, setHidden] = useHiddenColumns(table.id);
  const [widths, setWidths] = useColumnWidths(table.id);
  const dialogs = useTableDialogs();
  const { setColumnDialog, setRemoving } = dialogs;
  const [filterOpen, setFilterOpen] = useState(false);
  const [filterSeed, setFilterSeed] = useState<Column | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const reorder = useReorderColumns();

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 6000);
    return () => clearTimeout(timer);
  }, [notice]);

  const selectedIds = Object.keys(selection).filter((id) => selection[id]);
  const visibleColumns = table.columns.filter((column) => ownValue(hidden, column.key) !== false);

  function openFilter(seed: Column | null) {
    setFilterSeed(seed);
    setFilterOpen(true);
  }

  function onMoveColumn(column: Column, by: -1 | 1) {
    const keys = movedKeys(table, column.key, by);
    if (keys) reorder.mutate({ id: table.id, keys });
  }

  async function onRowsDeleted(count: number) {
    const remaining = (rows.data?.total ?? 0) - count;
    // The page may now be past the end: step back to the last one.
    if (view.offset > 0 && view.offset >= remaining) update({ offset: Math.max(0, Math.floor((remaining - 1) / view.limit) * view.limit) });
    await Promise.all([cache.rows(table.id), cache.tables()]);
    setSelection({});
    setNotice(t.tables.deleteRows.deleted(count));
  }

  const emptyGrid = (
    <EmptyGridMessage
      tableEmpty={Boolean(rows.data && rows.data.totalUnfiltered === 0)}
      onImport={() => dialogs.setImportOpen(true)}
      onAddRow={() => dialogs.setRowDialogOpen(true)}
      onClearSearch={() => update({ q: '', filters: [] })}
    />
  );

  return (
    <>
      <TableHeader
        table={table}
        isAdmin={isAdmin}
        onOpenStructure={() => dialogs.setStructureOpen(true)}
        onOpenSettings={() => dialogs.setSettingsOpen(true)}
      />

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
          <TableToolbar
            table={table}
            selectedCount={selectedIds.length}
            onDeleteSelected={() => dialogs.setConfirmDelete(true)}
            onClearSelection={() => setSelection({})}
            q={view.q}
            onSearch={(q) => update({ q })}
            filterColumns={filterColumns}
            filters={filters}
            match={view.match}
            filterOpen={filterOpen}
            filterSeed={filterSeed}
            onFilterOpenChange={(open) => {
              setFilterOpen(open);
              if (!open) setFilterSeed(null);
            }}
            onApplyFilters={(next, match) => update({ filters: next, match })}
            hidden={hidden}
            onHiddenChange={setHidden}
            sort={sortKey}
            dir={view.dir}
            onOrder={(sort, dir) => update({ sort, dir })}
            exportHref={exportHref(params ?? { id: table.id, offset: 0, limit: 1 })}
            onImport={() => dialogs.setImportOpen(true)}
            onAddRow={() => dialogs.setRowDialogOpen(true)}
          />

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
                    widths={widths}
                    onWidthsChange={setWidths}
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

      <TableDialogs
        table={table}
        isAdmin={isAdmin}
        dialogs={dialogs}
        selectedIds={selectedIds}
        onRowAdded={() => setNotice(t.tables.rowDialog.added)}
        onRowsDeleted={onRowsDeleted}
      />
    </>
  );
}
