'use client';

/**
 * One table: its rows in the grid with search, filters, sort and offset pagination; adding, editing
 * and deleting rows; CSV import and export; and, for administrators, the structure and settings.
 */
import Link from 'next/link';
import { useI18n } from '@/app/i18n/client';
import { errorCodeOf } from '@/app/lib/errors';
import { buttonClasses } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { cn } from '@/app/ui/cn';
import { ChevronLeftIcon, TableIcon } from '@/app/ui/icons';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { useMe } from '../../_shell/_lib/api';
import { useTable } from '../_lib/api';
import { TableWorkspace } from './table-workspace';

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
