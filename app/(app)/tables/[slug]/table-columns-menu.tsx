'use client';

/** The toolbar's menu choosing which columns the grid shows. */
import type { VisibilityState } from '@tanstack/react-table';
import { useI18n } from '@/app/i18n/client';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/app/ui/dropdown-menu';
import { ColumnsIcon } from '@/app/ui/icons';
import type { Column } from '../_lib/api';
import { ownValue } from '@/server/core/own-property';

export function ColumnsMenu({ columns, hidden, onChange }: { columns: Column[]; hidden: VisibilityState; onChange: (next: VisibilityState) => void }) {
  const { t } = useI18n();
  const hiddenCount = columns.filter((column) => ownValue(hidden, column.key) === false).length;
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
            checked={ownValue(hidden, column.key) !== false}
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
