'use client';

/**
 * Administrators: add a column, or change one (label, type, key column, required, options,
 * description). A change the existing cells do not fit is refused by the service: the rows concerned
 * are listed with their values.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { ConfirmDialog, Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, DialogForm } from '@/app/ui/dialog';
import { useTableMutations, useTablesCache, type Column, type Table } from '../_lib/api';
import {
  ColumnFields,
  columnInputOf,
  draftFromColumn,
  emptyColumnDraft,
  hasErrors,
  optionsOf,
  validateColumnDraft,
  type ColumnDraft,
  type ColumnDraftErrors,
} from '../_components/column-fields';

const shownRows = 10;

function Incompatible({ error }: { error: unknown }) {
  const { t } = useI18n();
  const c = t.tables.columnDialog;
  const info = appErrorOf(error);
  const rows = Array.isArray(info?.details.rows) ? (info.details.rows as { id?: string; value?: unknown }[]) : [];
  const count = typeof info?.details.count === 'number' ? info.details.count : rows.length;
  return (
    <Alert tone="danger" testId="column-incompatible" title={c.incompatibleTitle(count)}>
      <p>{c.incompatibleBody}</p>
      <ul className="mt-2 max-h-48 space-y-0.5 overflow-y-auto rounded-md border border-line bg-surface px-3 py-2 text-[13px] text-fg" data-testid="incompatible-rows">
        {rows.slice(0, shownRows).map((row, index) => (
          <li key={row.id ?? index} className="flex gap-2">
            <span className="shrink-0 font-mono text-xs text-muted">{c.incompatibleRow(String(row.id ?? '?').slice(0, 8))}</span>
            <span className="truncate">{row.value === null || row.value === undefined || row.value === '' ? c.emptyValue : shownValue(row.value)}</span>
          </li>
        ))}
      </ul>
      {count > Math.min(rows.length, shownRows) ? <p className="mt-1 text-xs">{c.more(count - Math.min(rows.length, shownRows))}</p> : null}
    </Alert>
  );
}

function ColumnForm({ table, column, onDone }: { table: Table; column: Column | null; onDone: () => void }) {
  const { t } = useI18n();
  const c = t.tables.columnDialog;
  const mutations = useTableMutations();
  const cache = useTablesCache();
  const [draft, setDraft] = useState<ColumnDraft>(() => (column ? draftFromColumn(column) : emptyColumnDraft()));
  const [errors, setErrors] = useState<ColumnDraftErrors>({});

  const onSuccess = async ({ table: updated }: { table: Table }) => {
    cache.putTable(updated);
    await Promise.all([cache.tables(), cache.rows(updated.id)]);
    onDone();
  };
  const add = useMutation({ ...mutations.addColumn, onSuccess });
  const update = useMutation({ ...mutations.updateColumn, onSuccess });
  const mutation = column ? update : add;

  function submit(event: FormEvent) {
    event.preventDefault();
    const taken = new Set(table.columns.filter((other) => other.key !== column?.key).map((other) => other.key));
    const found = validateColumnDraft(draft, taken, t);
    setErrors(found);
    if (hasErrors(found)) return;
    if (!column) {
      add.mutate({ id: table.id, column: columnInputOf(draft) });
      return;
    }
    const options = draft.type === 'select' ? optionsOf(draft) : [];
    const description = draft.description.trim() || null;
    update.mutate({
      id: table.id,
      key: column.key,
      ...(draft.label.trim() !== column.label ? { label: draft.label.trim() } : {}),
      ...(draft.type !== column.type ? { type: draft.type } : {}),
      ...(draft.isKey !== column.isKey ? { isKey: draft.isKey } : {}),
      ...(draft.required !== column.required ? { required: draft.required } : {}),
      ...(options.join('\n') !== column.options.join('\n') ? { options } : {}),
      ...(description !== (column.description ?? null) ? { description } : {}),
    });
  }

  const incompatible = mutation.isError && appErrorOf(mutation.error)?.code === 'tables.cells_incompatible';
  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-5">
        {mutation.isError ? (
          incompatible ? (
            <Incompatible error={mutation.error} />
          ) : (
            <Alert tone="danger" testId="column-error">
              {describeError(mutation.error, t)}
            </Alert>
          )
        ) : null}
        <ColumnFields
          idPrefix="column-dialog"
          draft={draft}
          onChange={(next) => {
            setDraft(next);
            setErrors({});
          }}
          errors={errors}
          keyLocked={column !== null}
          disabled={mutation.isPending}
        />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button disabled={mutation.isPending}>{t.common.cancel}</Button>
        </DialogClose>
        <Button type="submit" variant="primary" loading={mutation.isPending}>
          {mutation.isPending ? c.saving : column ? c.submitEdit : c.submitAdd}
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}

/** `column` null adds a column; a column edits it. */
/** A stored cell value as text (cells are text, numbers or booleans; anything else is shown as JSON). */
function shownValue(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

export function ColumnDialog({
  table,
  open,
  column,
  onOpenChange,
}: {
  table: Table;
  open: boolean;
  column: Column | null;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useI18n();
  const c = t.tables.columnDialog;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        size="lg"
        title={column ? c.editTitle(column.label) : c.addTitle}
        description={column ? c.editDescription : c.addDescription}
      >
        {open ? <ColumnForm key={column?.key ?? 'new'} table={table} column={column} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

export function RemoveColumnDialog({ table, column, onClose }: { table: Table; column: Column | null; onClose: () => void }) {
  const { t } = useI18n();
  const r = t.tables.removeColumn;
  const mutations = useTableMutations();
  const cache = useTablesCache();
  const remove = useMutation({
    ...mutations.removeColumn,
    onSuccess: async ({ table: updated }) => {
      cache.putTable(updated);
      await Promise.all([cache.tables(), cache.rows(updated.id)]);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open={column !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={column ? r.title(column.label) : ''}
      description={r.body}
      confirmLabel={remove.isPending ? r.removing : r.confirm}
      pending={remove.isPending}
      error={
        remove.isError ? (
          <Alert tone="danger" testId="remove-column-error">
            {describeError(remove.error, t)}
          </Alert>
        ) : null
      }
      onConfirm={() => column && remove.mutate({ id: table.id, key: column.key })}
    />
  );
}
