'use client';

/**
 * Administrators' menu on a template card: Edit (name, description, category) and Delete (confirmed).
 * Starter templates (shipped with the instance) are read-only: the server answers 409
 * `templates.read_only`, shown in the dialog, and they can still be disabled from the card.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { ConfirmDialog, Dialog, DialogContent, DialogBody, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/app/ui/dropdown-menu';
import { MoreIcon, PencilIcon, TrashIcon } from '@/app/ui/icons';
import { useTemplateMutations, useTemplatesCache, type Template } from '../_lib/api';
import { isTemplateCategory, TemplateFields, type TemplateFieldValues } from './template-fields';

function EditForm({ template, onDone }: { template: Template; onDone: () => void }) {
  const { t } = useI18n();
  const cache = useTemplatesCache();
  const mutations = useTemplateMutations();
  const [values, setValues] = useState<TemplateFieldValues>({
    name: template.name,
    description: template.description,
    category: isTemplateCategory(template.category) ? template.category : '',
  });
  const [nameError, setNameError] = useState<string>();
  const update = useMutation({
    ...mutations.update,
    onSuccess: async () => {
      await cache.refresh();
      onDone();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!values.name.trim()) {
      setNameError(t.templates.admin.nameRequired);
      return;
    }
    update.mutate({ id: template.id, name: values.name.trim(), description: values.description, category: values.category || null });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {update.isError ? (
          <Alert tone="danger" testId="template-edit-error">
            {describeError(update.error, t)}
          </Alert>
        ) : null}
        <TemplateFields
          values={values}
          onChange={(next) => {
            setValues(next);
            setNameError(undefined);
          }}
          nameError={nameError}
          labels={{ name: t.templates.admin.name, description: t.templates.admin.description, category: t.templates.admin.category, noCategory: t.templates.admin.noCategory }}
        />
      </DialogBody>
      <FormDialogFooter pending={update.isPending} submitLabel={t.templates.admin.save} pendingLabel={t.templates.admin.saving} />
    </DialogForm>
  );
}

function DeleteDialog({ template, open, onOpenChange }: { template: Template; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const cache = useTemplatesCache();
  const mutations = useTemplateMutations();
  const remove = useMutation({
    ...mutations.remove,
    onSuccess: async () => {
      onOpenChange(false);
      await cache.refresh();
    },
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) remove.reset();
        onOpenChange(next);
      }}
      title={t.templates.admin.deleteTitle(template.name)}
      description={t.templates.admin.deleteBody}
      confirmLabel={t.templates.admin.deleteConfirm}
      pending={remove.isPending}
      error={
        remove.isError ? (
          <Alert tone="danger" testId="template-delete-error">
            {describeError(remove.error, t)}
          </Alert>
        ) : null
      }
      onConfirm={() => remove.mutate({ id: template.id })}
    />
  );
}

export function TemplateAdminMenu({ template }: { template: Template }) {
  const { t } = useI18n();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button size="icon" variant="ghost" aria-label={t.templates.admin.menuOf(template.name)} data-testid="template-admin-menu">
            <MoreIcon />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setEditing(true)}>
            <PencilIcon />
            {t.templates.admin.edit}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setDeleting(true)} className="text-red-700 dark:text-red-400 [&_svg]:!text-current">
            <TrashIcon />
            {t.templates.admin.delete}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={editing} onOpenChange={setEditing}>
        {editing ? (
          <DialogContent title={t.templates.admin.editTitle(template.name)} description={t.templates.admin.editDescription}>
            <EditForm template={template} onDone={() => setEditing(false)} />
          </DialogContent>
        ) : null}
      </Dialog>
      <DeleteDialog template={template} open={deleting} onOpenChange={setDeleting} />
    </>
  );
}
