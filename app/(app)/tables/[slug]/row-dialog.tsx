'use client';

/** Adding a row through a form of every column, with the service's reasons shown on each field. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { SelectField, TextField } from '@/app/ui/field';
import { useTableMutations, useTablesCache, type Cells, type Column, type Row, type Table } from '../_lib/api';
import { parseEditorText } from '../_lib/cells';
import { ownValue } from '@/server/core/own-property';

type FieldErrors = Record<string, string>;

function problemsOf(error: unknown, t: Dictionary): FieldErrors | null {
  const info = appErrorOf(error);
  if (info?.code !== 'tables.invalid_cells') return null;
  const problems = Array.isArray(info.details.problems) ? (info.details.problems as { column?: string; reason?: string; message?: string }[]) : [];
  const found: FieldErrors = {};
  for (const problem of problems) {
    if (!problem.column) continue;
    found[problem.column] = (problem.reason && (t.tables.problems as Record<string, string>)[problem.reason]) || problem.message || t.errors.generic;
  }
  return found;
}

function CellField({ column, value, error, onChange }: { column: Column; value: string; error?: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  const common = {
    id: `row-field-${column.key}`,
    name: column.key,
    label: column.label,
    hint: column.description ?? undefined,
    optional: column.required ? undefined : t.common.optional,
    error,
  };
  if (column.type === 'boolean' || column.type === 'select') {
    return (
      <SelectField {...common} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t.tables.values.empty}</option>
        {column.type === 'boolean' ? (
          <>
            <option value="true">{t.tables.values.yes}</option>
            <option value="false">{t.tables.values.no}</option>
          </>
        ) : (
          column.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))
        )}
      </SelectField>
    );
  }
  const type = column.type === 'date' ? 'date' : column.type === 'datetime' ? 'datetime-local' : column.type === 'email' ? 'email' : 'text';
  return (
    <TextField
      {...common}
      type={type}
      inputMode={column.type === 'number' ? 'decimal' : column.type === 'email' ? 'email' : undefined}
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

function RowForm({ table, onAdded }: { table: Table; onAdded: (row: Row) => void }) {
  const { t } = useI18n();
  const mutations = useTableMutations();
  const cache = useTablesCache();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<FieldErrors>({});

  const create = useMutation({
    ...mutations.createRow,
    onSuccess: async ({ row }) => {
      await Promise.all([cache.rows(table.id), cache.tables()]);
      onAdded(row);
    },
    onError: (error) => {
      const problems = problemsOf(error, t);
      if (problems) setErrors(problems);
      else if (appErrorOf(error)?.code === 'tables.duplicate_key') {
        const keyColumn = table.columns.find((column) => column.isKey);
        if (keyColumn) setErrors({ [keyColumn.key]: t.tables.problems.duplicate_key });
      }
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const cells: Cells = {};
    const found: FieldErrors = {};
    for (const column of table.columns) {
      const parsed = parseEditorText(column.type, ownValue(values, column.key) ?? '');
      if (!parsed.ok) found[column.key] = t.tables.problems[parsed.error];
      else if (parsed.value !== null) cells[column.key] = parsed.value;
      else if (column.required) found[column.key] = t.tables.problems.required;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate({ id: table.id, cells });
  }

  const fieldErrors = Object.keys(errors).length > 0;
  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {create.isError && !fieldErrors ? (
          <Alert tone="danger" testId="add-row-error">
            {describeError(create.error, t)}
          </Alert>
        ) : null}
        <div className="grid items-start gap-4 sm:grid-cols-2">
          {table.columns.map((column) => (
            <CellField
              key={column.key}
              column={column}
              value={ownValue(values, column.key) ?? ''}
              error={ownValue(errors, column.key)}
              onChange={(value) => {
                setValues((current) => ({ ...current, [column.key]: value }));
                setErrors((current) => {
                  const rest = { ...current };
                  delete rest[column.key];
                  return rest;
                });
              }}
            />
          ))}
        </div>
      </DialogBody>
      <FormDialogFooter pending={create.isPending} submitLabel={t.tables.rowDialog.submit} pendingLabel={t.tables.rowDialog.submitting} />
    </DialogForm>
  );
}

export function RowDialog({
  table,
  open,
  onOpenChange,
  onAdded,
}: {
  table: Table;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAdded: (row: Row) => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" title={t.tables.rowDialog.title} description={t.tables.rowDialog.description}>
        {open ? (
          <RowForm
            table={table}
            onAdded={(row) => {
              onOpenChange(false);
              onAdded(row);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
