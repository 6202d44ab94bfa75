'use client';

/** The table page's heading: name, description, slug, counts and key column; structure and settings for administrators. */
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { ColumnsIcon, KeyColumnIcon, SettingsIcon } from '@/app/ui/icons';
import type { Table } from '../_lib/api';
import { useNumberFormat } from './use-number-format';

export function TableHeader({
  table,
  isAdmin,
  onOpenStructure,
  onOpenSettings,
}: {
  table: Table;
  isAdmin: boolean;
  onOpenStructure: () => void;
  onOpenSettings: () => void;
}) {
  const { t } = useI18n();
  const number = useNumberFormat();
  const keyColumn = table.columns.find((column) => column.isKey);
  return (
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
          <Button onClick={onOpenStructure} data-testid="open-structure">
            <ColumnsIcon />
            {t.tables.page.structure}
          </Button>
          <Button onClick={onOpenSettings} data-testid="open-settings">
            <SettingsIcon />
            {t.tables.page.settings}
          </Button>
        </div>
      ) : null}
    </header>
  );
}
