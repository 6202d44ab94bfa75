'use client';

/** Administrators: the table's name, slug, description and key rule; deleting the table. */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { CheckboxField, TextareaField, TextField } from '@/app/ui/field';
import { ConfirmDialog, Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { useFieldErrors } from '@/app/ui/field-errors';
import { isSlug } from '@/server/domains/tables/naming';
import { useTableMutations, useTablesCache, type Table } from '../_lib/api';

function SettingsForm({ table, onDone, onDelete }: { table: Table; onDone: () => void; onDelete: () => void }) {
  const { t } = useI18n();
  const s = t.tables.settings;
  const router = useRouter();
  const mutations = useTableMutations();
  const cache = useTablesCache();
  const [name, setName] = useState(table.name);
  const [slug, setSlug] = useState(table.slug);
  const [description, setDescription] = useState(table.description ?? '');
  const [keyUnique, setKeyUnique] = useState(table.keyUnique);
  const { errors, setErrors, clearError } = useFieldErrors<{ name?: string; slug?: string }>({});

  const patch = useMutation({
    ...mutations.patch,
    onSuccess: async ({ table: updated }) => {
      cache.putTable(updated);
      await cache.tables();
      onDone();
      if (updated.slug !== table.slug) router.replace(`/tables/${updated.slug}${window.location.search}`);
    },
    onError: (error) => {
      if (appErrorOf(error)?.code === 'tables.duplicate_slug') setErrors({ slug: describeError(error, t) });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      name: name.trim() ? undefined : t.tables.create.nameRequired,
      slug: isSlug(slug.trim()) ? undefined : t.tables.create.slugInvalid,
    };
    setErrors(found);
    if (found.name || found.slug) return;
    patch.mutate({
      id: table.id,
      ...(name.trim() !== table.name ? { name: name.trim() } : {}),
      ...(slug.trim() !== table.slug ? { slug: slug.trim() } : {}),
      ...((description.trim() || null) !== table.description ? { description: description.trim() || null } : {}),
      ...(keyUnique !== table.keyUnique ? { keyUnique } : {}),
    });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-5">
        {patch.isError && appErrorOf(patch.error)?.code !== 'tables.duplicate_slug' ? (
          <Alert tone="danger" testId="table-settings-error">
            {describeError(patch.error, t)}
          </Alert>
        ) : null}
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <TextField
            label={t.tables.create.name}
            value={name}
            maxLength={120}
            autoComplete="off"
            onChange={(event) => {
              setName(event.target.value);
              clearError('name');
            }}
            error={errors.name}
          />
          <TextField
            label={t.tables.create.slug}
            value={slug}
            maxLength={60}
            autoComplete="off"
            spellCheck={false}
            className="font-mono text-[13px]"
            onChange={(event) => {
              setSlug(event.target.value);
              clearError('slug');
            }}
            hint={s.slugHint}
            error={errors.slug}
          />
        </div>
        <TextareaField
          label={t.tables.create.descriptionField}
          optional={t.common.optional}
          rows={2}
          maxLength={1000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <CheckboxField label={t.tables.create.keyUnique} hint={t.tables.create.keyUniqueHint} checked={keyUnique} onChange={(event) => setKeyUnique(event.target.checked)} />
        <section className="rounded-lg border border-red-600/25 px-4 py-3" aria-labelledby="danger-heading">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h3 id="danger-heading" className="text-sm font-semibold">
                {s.danger}
              </h3>
              <p className="text-xs text-muted">{s.dangerBody}</p>
            </div>
            <Button variant="dangerGhost" onClick={onDelete} disabled={patch.isPending}>
              {s.delete}
            </Button>
          </div>
        </section>
      </DialogBody>
      <FormDialogFooter pending={patch.isPending} submitLabel={s.submit} pendingLabel={s.saving} />
    </DialogForm>
  );
}

export function SettingsDialog({ table, open, onOpenChange }: { table: Table; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const s = t.tables.settings;
  const router = useRouter();
  const mutations = useTableMutations();
  const cache = useTablesCache();
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    ...mutations.remove,
    onSuccess: async () => {
      await cache.tables();
      setDeleting(false);
      onOpenChange(false);
      router.push('/tables');
    },
  });
  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent size="lg" title={s.title} description={s.description}>
          {open ? <SettingsForm table={table} onDone={() => onOpenChange(false)} onDelete={() => setDeleting(true)} /> : null}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={deleting}
        onOpenChange={(next) => {
          if (!next) {
            remove.reset();
            setDeleting(false);
          }
        }}
        title={s.deleteTitle(table.name)}
        description={s.deleteBody(table.rowCount)}
        confirmLabel={remove.isPending ? s.deleting : s.deleteConfirm}
        pending={remove.isPending}
        error={
          remove.isError ? (
            <Alert tone="danger" testId="delete-table-error">
              {describeError(remove.error, t)}
            </Alert>
          ) : null
        }
        onConfirm={() => remove.mutate({ id: table.id })}
      />
    </>
  );
}
