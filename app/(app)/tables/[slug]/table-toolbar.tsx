'use client';

/**
 * The bar above the grid: search, filters and columns (or, with rows selected, the selection's
 * actions), then import, export and add row.
 */
import type { VisibilityState } from '@tanstack/react-table';
import { useI18n } from '@/app/i18n/client';
import { Button, buttonClasses } from '@/app/ui/button';
import { DownloadIcon, PlusIcon, TrashIcon, UploadIcon } from '@/app/ui/icons';
import type { Column, FilterCondition, Match, SortDir, Table } from '../_lib/api';
import { FilterBuilder } from './filter-builder';
import { ColumnsMenu } from './table-columns-menu';
import { OrderMenu, type MetaSort } from './table-order-menu';
import { SearchBox } from './table-search-box';

export function TableToolbar({
  table,
  selectedCount,
  onDeleteSelected,
  onClearSelection,
  q,
  onSearch,
  filterColumns,
  filters,
  match,
  filterOpen,
  filterSeed,
  onFilterOpenChange,
  onApplyFilters,
  hidden,
  onHiddenChange,
  sort,
  dir,
  onOrder,
  exportHref,
  onImport,
  onAddRow,
}: {
  table: Table;
  selectedCount: number;
  onDeleteSelected: () => void;
  onClearSelection: () => void;
  q: string;
  onSearch: (q: string) => void;
  filterColumns: Column[];
  filters: FilterCondition[];
  match: Match;
  filterOpen: boolean;
  filterSeed: Column | null;
  onFilterOpenChange: (open: boolean) => void;
  onApplyFilters: (filters: FilterCondition[], match: Match) => void;
  hidden: VisibilityState;
  onHiddenChange: (next: VisibilityState) => void;
  sort: string | null;
  dir: SortDir;
  onOrder: (sort: MetaSort, dir: SortDir) => void;
  /** The export of the current view (search, filters, order). */
  exportHref: string;
  onImport: () => void;
  onAddRow: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      {selectedCount > 0 ? (
        <div className="flex flex-wrap items-center gap-2 rounded-md bg-brand/5 py-0.5 pr-1 pl-3 ring-1 ring-brand/20" data-testid="selection-bar">
          <span className="text-sm font-medium">{t.tables.toolbar.selected(selectedCount)}</span>
          <Button size="sm" variant="dangerGhost" onClick={onDeleteSelected}>
            <TrashIcon />
            {t.tables.toolbar.deleteSelected}
          </Button>
          <Button size="sm" variant="ghost" onClick={onClearSelection}>
            {t.tables.toolbar.clearSelection}
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <SearchBox value={q} onChange={onSearch} />
          <FilterBuilder
            columns={filterColumns}
            conditions={filters}
            match={match}
            open={filterOpen}
            seed={filterSeed}
            onOpenChange={onFilterOpenChange}
            onApply={onApplyFilters}
          />
          <OrderMenu sort={sort} dir={dir} columns={table.columns} onChange={onOrder} />
          <ColumnsMenu columns={table.columns} hidden={hidden} onChange={onHiddenChange} />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={onImport}>
          <UploadIcon />
          {t.tables.page.importCsv}
        </Button>
        <a href={exportHref} download={`${table.slug}.csv`} className={buttonClasses('secondary')} title={t.tables.page.exportHint} data-testid="export-csv">
          <DownloadIcon />
          {t.tables.page.exportCsv}
        </a>
        <Button variant="primary" onClick={onAddRow} data-testid="add-row">
          <PlusIcon />
          {t.tables.page.addRow}
        </Button>
      </div>
    </div>
  );
}
