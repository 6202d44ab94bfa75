'use client';

/** Administrators: the columns in display order, moved up and down, edited, removed or added. */
import { useMutation } from '@tanstack/react-query';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { ArrowDownIcon, ArrowUpIcon, KeyColumnIcon, PencilIcon, PlusIcon, TrashIcon } from '@/app/ui/icons';
import { useTableMutations, useTablesCache, type Column, type Table } from '../_lib/api';

/** The keys after moving one column by one place. */
export function movedKeys(table: Table, key: string, by: -1 | 1): string[] | null {
  const keys = table.columns.map((column) => column.key);
  const index = keys.indexOf(key);
  const target = index + by;
  if (index < 0 || target < 0 || target >= keys.length) return null;
  [keys[index], keys[target]] = [keys[target], keys[index]];
  return keys;
}

export function useReorderColumns() {
  const mutations = useTableMutations();
  const cache = useTablesCache();
  return useMutation({
    ...mutations.reorderColumns,
    onSuccess: async ({ table: updated }) => {
      cache.putTable(updated);
      await cache.tables();
    },
  });
}

export function StructureDialog({
  table,
  open,
  onOpenChange,
  onAdd,
  onEdit,
  onRemove,
}: {
  table: Table;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdd: () => void;
  onEdit: (column: Column) => void;
  onRemove: (column: Column) => void;
}) {
  const { t } = useI18n();
  const s = t.tables.structure;
  const reorder = useReorderColumns();

  function move(column: Column, by: -1 | 1) {
    const keys = movedKeys(table, column.key, by);
    if (keys) reorder.mutate({ id: table.id, keys });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reorder.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent size="lg" title={s.title} description={s.description}>
        <DialogBody className="space-y-3">
          {reorder.isError ? (
            <Alert tone="danger" testId="reorder-error">
              {describeError(reorder.error, t)}
            </Alert>
          ) : null}
          {table.columns.length === 0 ? <p className="rounded-lg border border-dashed border-line-strong px-4 py-8 text-center text-sm text-muted">{s.empty}</p> : null}
          <ol className="divide-y divide-line overflow-hidden rounded-lg border border-line" aria-busy={reorder.isPending || undefined}>
            {table.columns.map((column, index) => (
              <li key={column.key} className="flex items-center gap-3 px-3 py-2.5" data-testid="structure-column">
                <span className="w-5 shrink-0 text-right text-xs text-muted tabular-nums">{index + 1}</span>
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-1.5 truncate text-sm font-medium">
                    {column.isKey ? <KeyColumnIcon size={13} className="shrink-0 text-brand-fg" /> : null}
                    {column.label}
                  </p>
                  <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
                    <code className="font-mono">{column.key}</code>
                    <Badge tone="neutral">{t.tables.types[column.type]}</Badge>
                    {column.isKey ? <Badge tone="brand">{t.tables.grid.keyColumn}</Badge> : null}
                    {column.required ? <Badge tone="warning">{t.tables.grid.requiredColumn}</Badge> : null}
                    {column.type === 'select' ? <span>{s.options(column.options.length)}</span> : null}
                  </p>
                </div>
                <div className="flex shrink-0 gap-0.5">
                  <Button size="icon" variant="ghost" aria-label={s.moveUp(column.label)} disabled={index === 0 || reorder.isPending} onClick={() => move(column, -1)}>
                    <ArrowUpIcon />
                  </Button>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={s.moveDown(column.label)}
                    disabled={index === table.columns.length - 1 || reorder.isPending}
                    onClick={() => move(column, 1)}
                  >
                    <ArrowDownIcon />
                  </Button>
                  <Button size="icon" variant="ghost" aria-label={s.edit(column.label)} onClick={() => onEdit(column)}>
                    <PencilIcon />
                  </Button>
                  <Button size="icon" variant="dangerGhost" aria-label={s.remove(column.label)} onClick={() => onRemove(column)}>
                    <TrashIcon />
                  </Button>
                </div>
              </li>
            ))}
          </ol>
          <Button onClick={onAdd}>
            <PlusIcon />
            {s.addColumn}
          </Button>
        </DialogBody>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="primary">{t.common.done}</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
