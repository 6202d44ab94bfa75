'use client';

/** The tables of the team with their size; administrators create new ones here. */
import Link from 'next/link';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDate, formatDateTime } from '@/app/lib/format';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { KeyColumnIcon, PlusIcon, TableIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useMe } from '../_shell/_lib/api';
import { CreateTableDialog } from './_components/create-table-dialog';
import { useTablesList, type Table as DataTable } from './_lib/api';

function TablesTable({ tables }: { tables: DataTable[] }) {
  const { t, locale } = useI18n();
  const number = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB');
  return (
    <Table caption={t.tables.title}>
      <THead>
        <TH>{t.tables.columnsHeader.name}</TH>
        <TH>{t.tables.columnsHeader.slug}</TH>
        <TH className="text-right">{t.tables.columnsHeader.columns}</TH>
        <TH className="text-right">{t.tables.columnsHeader.rows}</TH>
        <TH>{t.tables.columnsHeader.updated}</TH>
      </THead>
      <TBody>
        {tables.map((table) => {
          const keyColumn = table.columns.find((column) => column.isKey);
          return (
            <TR key={table.id} data-testid="tables-row" className="relative">
              <TD className="max-w-80">
                {/* The whole row is the link's target; the link itself is the name. */}
                <Link
                  href={`/tables/${table.slug}`}
                  className="font-medium text-fg after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:outline-none focus-visible:after:rounded-sm focus-visible:after:outline-2 focus-visible:after:outline-brand"
                >
                  {table.name}
                </Link>
                {table.description ? <p className="mt-0.5 truncate text-xs text-muted" title={table.description}>{table.description}</p> : null}
              </TD>
              <TD>
                <code className="font-mono text-xs text-muted">{table.slug}</code>
              </TD>
              <TD className="text-right whitespace-nowrap tabular-nums">
                <span className="inline-flex items-center gap-2">
                  {keyColumn ? (
                    <Badge tone="neutral" title={t.tables.grid.keyColumn}>
                      <KeyColumnIcon size={12} className="text-brand-fg" />
                      {keyColumn.label}
                    </Badge>
                  ) : null}
                  {number.format(table.columns.length)}
                </span>
              </TD>
              <TD className="text-right tabular-nums">{number.format(table.rowCount)}</TD>
              <TD className="whitespace-nowrap text-muted" title={formatDateTime(table.updatedAt, locale)}>
                {formatDate(table.updatedAt, locale)}
              </TD>
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}

export function TablesView() {
  const { t } = useI18n();
  const me = useMe();
  const tables = useTablesList();
  const [createOpen, setCreateOpen] = useState(false);
  const isAdmin = me.data?.role === 'admin';

  const createButton = isAdmin ? (
    <Button variant="primary" onClick={() => setCreateOpen(true)}>
      <PlusIcon />
      {t.tables.newTable}
    </Button>
  ) : null;

  return (
    <>
      <PageHeader title={t.tables.title} description={t.tables.description} actions={createButton} />
      {tables.isPending ? (
        <LoadingState />
      ) : tables.isError ? (
        <ErrorState error={tables.error} onRetry={() => tables.refetch()} testId="tables-error" />
      ) : tables.data.tables.length === 0 ? (
        <EmptyState
          icon={<TableIcon size={18} />}
          title={t.tables.empty.title}
          body={isAdmin ? t.tables.empty.bodyAdmin : t.tables.empty.bodyMember}
          action={createButton}
        />
      ) : (
        <TablesTable tables={tables.data.tables} />
      )}
      {isAdmin ? <CreateTableDialog open={createOpen} onOpenChange={setCreateOpen} /> : null}
    </>
  );
}
