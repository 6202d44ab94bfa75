'use client';

/**
 * Install a template: an optional workflow name and, for a template that needs tables, each table
 * created or chosen among the team's (install-tables.tsx), then straight to the new draft's page.
 */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { TextField } from '@/app/ui/field';
import { useExistingTables, useTemplateMutations, useTemplatesCache, type Template } from '../_lib/api';
import { defaultChoices, mismatchText, TableChoices, type ExistingTable, type TableChoice } from './install-tables';

function InstallForm({ template, isAdmin, existing, onDone }: { template: Template; isAdmin: boolean; existing: ExistingTable[]; onDone: () => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const cache = useTemplatesCache();
  const mutations = useTemplateMutations();
  const [name, setName] = useState('');
  const [tables, setTables] = useState<TableChoice[]>(() => defaultChoices(template.tables, existing, isAdmin));
  const install = useMutation({
    ...mutations.install,
    onSuccess: async ({ workflowId }) => {
      await cache.refresh();
      onDone();
      router.push(`/workflows/${workflowId}`);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (unusable) return;
    const trimmed = name.trim();
    install.mutate({ id: template.id, ...(trimmed ? { name: trimmed } : {}), ...(tables.length ? { tables } : {}) });
  }

  const error = install.isError ? appErrorOf(install.error) : null;
  const forbidden = error?.code === 'templates.forbidden_node' && Array.isArray(error.details.nodeTypes) ? (error.details.nodeTypes as string[]) : null;
  const mismatch = error?.code === 'templates.table_mismatch' ? mismatchText(t, template.tables, existing, error.details) : null;
  const unusable = tables.some((choice) => choice.use === 'existing' && !choice.tableId);

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {install.isError ? (
          <Alert tone="danger" testId="install-template-error">
            {forbidden ? t.templates.forbiddenNode(forbidden.join(', ')) : (mismatch ?? describeError(install.error, t))}
          </Alert>
        ) : null}
        <TextField
          label={t.templates.installName}
          optional={t.common.optional}
          hint={t.templates.installNameHint}
          name="name"
          autoFocus
          autoComplete="off"
          maxLength={200}
          placeholder={template.name}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <TableChoices tables={template.tables} existing={existing} isAdmin={isAdmin} value={tables} onChange={setTables} />
      </DialogBody>
      <FormDialogFooter pending={install.isPending} submitLabel={t.templates.installSubmit} pendingLabel={t.templates.installing} />
    </DialogForm>
  );
}

export function InstallTemplateDialog({ template, isAdmin = false, onOpenChange }: { template: Template | null; isAdmin?: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const needsTables = (template?.tables.length ?? 0) > 0;
  const existing = useExistingTables(needsTables);
  return (
    <Dialog open={template !== null} onOpenChange={onOpenChange}>
      {template ? (
        <DialogContent title={t.templates.installTitle(template.name)} description={t.templates.installDescription}>
          {needsTables && existing.isPending ? null : (
            <InstallForm
              template={template}
              isAdmin={isAdmin}
              existing={(existing.data?.tables ?? []).map(({ id, slug, name }) => ({ id, slug, name }))}
              onDone={() => onOpenChange(false)}
            />
          )}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
