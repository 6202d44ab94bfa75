'use client';

/** Messages shown in place of the grid's rows: no columns, no rows at all, no matching rows, all columns hidden. */
import type { ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { PlusIcon, SearchIcon, TableIcon, UploadIcon } from '@/app/ui/icons';

export function GridMessage({ icon, title, body, action }: { icon?: ReactNode; title: string; body?: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-12 text-center" data-testid="grid-empty">
      {icon ? <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-brand/10 text-brand-fg">{icon}</div> : null}
      <h3 className="text-sm font-semibold">{title}</h3>
      {body ? <p className="mt-1 max-w-sm text-sm text-muted">{body}</p> : null}
      {action ? <div className="mt-4 flex flex-wrap justify-center gap-2">{action}</div> : null}
    </div>
  );
}

/** The page has no rows: the table is empty (import or add one) or nothing matches the search and filters. */
export function EmptyGridMessage({
  tableEmpty,
  onImport,
  onAddRow,
  onClearSearch,
}: {
  tableEmpty: boolean;
  onImport: () => void;
  onAddRow: () => void;
  onClearSearch: () => void;
}) {
  const { t } = useI18n();
  return tableEmpty ? (
    <GridMessage
      icon={<TableIcon size={18} />}
      title={t.tables.grid.noRows.title}
      body={t.tables.grid.noRows.body}
      action={
        <>
          <Button onClick={onImport}>
            <UploadIcon />
            {t.tables.page.importCsv}
          </Button>
          <Button variant="primary" onClick={onAddRow}>
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
      action={<Button onClick={onClearSearch}>{t.tables.grid.noMatch.clear}</Button>}
    />
  );
}
