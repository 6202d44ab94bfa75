'use client';

/** Administrators: a new table with its columns in one step, then straight to its page. */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { CheckboxField, TextareaField, TextField } from '@/app/ui/field';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, TrashIcon } from '@/app/ui/icons';
import { useFieldErrors } from '@/app/ui/field-errors';
import { isSlug, slugFromName } from '@/server/domains/tables/naming';
import { useTableMutations, useTablesCache } from '../_lib/api';
import {
  ColumnFields,
  columnInputOf,
  effectiveKey,
  emptyColumnDraft,
  hasErrors,
  validateColumnDraft,
  type ColumnDraft,
  type ColumnDraftErrors,
} from './column-fields';

interface FormErrors {
  name?: string;
  slug?: string;
  columns: Record<number, ColumnDraftErrors>;
}

function CreateTableForm({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const cache = useTablesCache();
  const mutations = useTableMutations();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [description, setDescription] = useState('');
  const [keyUnique, setKeyUnique] = useState(true);
  const [columns, setColumns] = useState<ColumnDraft[]>(() => [emptyColumnDraft()]);
  const { errors, setErrors, clearError } = useFieldErrors<FormErrors>({ columns: {} });

  const create = useMutation({
    ...mutations.create,
    onSuccess: async ({ table }) => {
      cache.putTable(table);
      await cache.tables();
      onDone();
      router.push(`/tables/${table.slug}`);
    },
    onError: (error) => {
      const info = appErrorOf(error);
      if (info?.code === 'tables.duplicate_slug') setErrors((found) => ({ ...found, slug: describeError(error, t) }));
    },
  });

  function updateColumn(index: number, next: ColumnDraft) {
    setColumns((current) =>
      current.map((column, i) => {
        if (i === index) return next;
        // One key column per table: choosing a new one releases the previous.
        return next.isKey && !current[index].isKey ? { ...column, isKey: false } : column;
      }),
    );
    setErrors((found) => ({ ...found, columns: { ...found.columns, [next.uid]: {} } }));
  }

  function move(index: number, by: -1 | 1) {
    setColumns((current) => {
      const next = [...current];
      const [column] = next.splice(index, 1);
      next.splice(index + by, 0, column);
      return next;
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: FormErrors = { columns: {} };
    if (!name.trim()) found.name = t.tables.create.nameRequired;
    if (slug.trim() && !isSlug(slug.trim())) found.slug = t.tables.create.slugInvalid;
    const keys = columns.map(effectiveKey);
    columns.forEach((column, index) => {
      const taken = new Set(keys.filter((_, i) => i !== index && columns[i].label.trim()));
      const columnErrors = validateColumnDraft(column, taken, t);
      if (hasErrors(columnErrors)) found.columns[column.uid] = columnErrors;
    });
    setErrors(found);
    if (found.name || found.slug || Object.keys(found.columns).length > 0) return;
    create.mutate({
      name: name.trim(),
      ...(slug.trim() ? { slug: slug.trim() } : {}),
      description: description.trim() || null,
      columns: columns.map(columnInputOf),
      keyUnique,
    });
  }

  const generalError = create.isError && appErrorOf(create.error)?.code !== 'tables.duplicate_slug';

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-5">
        {generalError ? (
          <Alert tone="danger" testId="create-table-error">
            {describeError(create.error, t)}
          </Alert>
        ) : null}
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            label={t.tables.create.name}
            name="name"
            autoFocus
            autoComplete="off"
            maxLength={120}
            placeholder={t.tables.create.namePlaceholder}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              clearError('name');
            }}
            error={errors.name}
          />
          <TextField
            label={t.tables.create.slug}
            optional={t.common.optional}
            name="slug"
            autoComplete="off"
            spellCheck={false}
            maxLength={60}
            className="font-mono text-[13px]"
            placeholder={name.trim() ? slugFromName(name) : undefined}
            value={slug}
            onChange={(event) => {
              setSlug(event.target.value);
              clearError('slug');
            }}
            hint={t.tables.create.slugHint(name.trim() ? slugFromName(name) : '')}
            error={errors.slug}
          />
        </div>
        <TextareaField
          label={t.tables.create.descriptionField}
          optional={t.common.optional}
          name="description"
          rows={2}
          maxLength={1000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <CheckboxField
          label={t.tables.create.keyUnique}
          hint={t.tables.create.keyUniqueHint}
          checked={keyUnique}
          onChange={(event) => setKeyUnique(event.target.checked)}
        />

        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold">{t.tables.create.columns}</legend>
          <p className="-mt-1 text-xs text-muted">{t.tables.create.columnsHint}</p>
          {columns.length === 0 ? <p className="rounded-lg border border-dashed border-line-strong px-4 py-6 text-center text-sm text-muted">{t.tables.create.noColumns}</p> : null}
          <ol className="space-y-3">
            {columns.map((column, index) => {
              const label = column.label.trim() || t.tables.columnFields.heading(index + 1);
              return (
                <li key={column.uid} className="rounded-lg border border-line bg-subtle/30 p-4" data-testid="column-editor">
                  <div className="mb-3 flex items-center justify-between gap-2">
                    <h3 className="text-[13px] font-semibold text-muted">{t.tables.columnFields.heading(index + 1)}</h3>
                    <div className="flex gap-1">
                      <Button size="icon" variant="ghost" aria-label={t.tables.columnFields.moveUp(label)} disabled={index === 0} onClick={() => move(index, -1)}>
                        <ArrowUpIcon />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={t.tables.columnFields.moveDown(label)}
                        disabled={index === columns.length - 1}
                        onClick={() => move(index, 1)}
                      >
                        <ArrowDownIcon />
                      </Button>
                      <Button
                        size="icon"
                        variant="dangerGhost"
                        aria-label={t.tables.columnFields.remove(label)}
                        onClick={() => setColumns((current) => current.filter((c) => c.uid !== column.uid))}
                      >
                        <TrashIcon />
                      </Button>
                    </div>
                  </div>
                  <ColumnFields
                    idPrefix={`new-column-${column.uid}`}
                    compact
                    draft={column}
                    onChange={(next) => updateColumn(index, next)}
                    errors={errors.columns[column.uid]}
                    disabled={create.isPending}
                  />
                </li>
              );
            })}
          </ol>
          <Button onClick={() => setColumns((current) => [...current, emptyColumnDraft()])} disabled={create.isPending}>
            <PlusIcon />
            {t.tables.create.addColumn}
          </Button>
        </fieldset>
      </DialogBody>
      <FormDialogFooter pending={create.isPending} submitLabel={t.tables.create.submit} pendingLabel={t.tables.create.submitting} />
    </DialogForm>
  );
}

export function CreateTableDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="xl" title={t.tables.create.title} description={t.tables.create.description}>
        {open ? <CreateTableForm onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
