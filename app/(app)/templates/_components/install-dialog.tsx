'use client';

/** Install a template: an optional workflow name, then straight to the new draft's page. */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { TextField } from '@/app/ui/field';
import { useTemplateMutations, useTemplatesCache, type Template } from '../_lib/api';

function InstallForm({ template, onDone }: { template: Template; onDone: () => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const cache = useTemplatesCache();
  const mutations = useTemplateMutations();
  const [name, setName] = useState('');
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
    const trimmed = name.trim();
    install.mutate({ id: template.id, ...(trimmed ? { name: trimmed } : {}) });
  }

  const error = install.isError ? appErrorOf(install.error) : null;
  const forbidden = error?.code === 'templates.forbidden_node' && Array.isArray(error.details.nodeTypes) ? (error.details.nodeTypes as string[]) : null;

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {install.isError ? (
          <Alert tone="danger" testId="install-template-error">
            {forbidden ? t.templates.forbiddenNode(forbidden.join(', ')) : describeError(install.error, t)}
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
      </DialogBody>
      <FormDialogFooter pending={install.isPending} submitLabel={t.templates.installSubmit} pendingLabel={t.templates.installing} />
    </DialogForm>
  );
}

export function InstallTemplateDialog({ template, onOpenChange }: { template: Template | null; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={template !== null} onOpenChange={onOpenChange}>
      {template ? (
        <DialogContent title={t.templates.installTitle(template.name)} description={t.templates.installDescription}>
          <InstallForm template={template} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
