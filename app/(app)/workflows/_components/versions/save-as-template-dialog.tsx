'use client';

/**
 * Administrators: offer a workflow's draft to every member as a template (POST
 * /api/v1/admin/templates with the workflow's id: the server copies the draft graph and derives node
 * types and required providers). Name, description and category start from the workflow; the
 * template does not follow later changes of the workflow. A graph the server refuses shows its issues.
 */
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { CheckboxField } from '@/app/ui/field';
import { TemplateFields, type TemplateFieldValues } from '../../../templates/_components/template-fields';
import { useTemplateMutations, useTemplatesCache } from '../../../templates/_lib/api';
import { graphIssuesOf } from '../../_lib/graph-issues';
import { GraphIssueList } from '../graph-issue-list';

export interface SaveAsTemplateDialogProps {
  workflow: { id: string; name: string; description?: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the new template's id once it is saved. */
  onSaved?: (templateId: string) => void;
}

function SaveForm({ workflow, onSaved }: { workflow: SaveAsTemplateDialogProps['workflow']; onSaved: (id: string, name: string) => void }) {
  const { t } = useI18n();
  const cache = useTemplatesCache();
  const mutations = useTemplateMutations();
  const [values, setValues] = useState<TemplateFieldValues>({ name: workflow.name, description: workflow.description ?? '', category: '' });
  const [enabled, setEnabled] = useState(true);
  const [nameError, setNameError] = useState<string>();
  const create = useMutation({
    ...mutations.create,
    onSuccess: async ({ template }) => {
      await cache.refresh();
      onSaved(template.id, template.name);
    },
  });
  const issues = create.isError ? graphIssuesOf(create.error) : [];

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!values.name.trim()) {
      setNameError(t.versions.saveAsTemplate.nameRequired);
      return;
    }
    create.mutate({ workflowId: workflow.id, name: values.name.trim(), description: values.description, category: values.category || null, enabled });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {create.isError && issues.length === 0 ? (
          <Alert tone="danger" testId="save-template-error">
            {describeError(create.error, t)}
          </Alert>
        ) : null}
        <GraphIssueList issues={issues} testId="save-template-issues" />
        <TemplateFields
          values={values}
          onChange={(next) => {
            setValues(next);
            setNameError(undefined);
          }}
          nameError={nameError}
          labels={{
            name: t.versions.saveAsTemplate.name,
            description: t.versions.saveAsTemplate.descriptionField,
            descriptionHint: t.versions.saveAsTemplate.descriptionHint,
            category: t.versions.saveAsTemplate.category,
            noCategory: t.versions.saveAsTemplate.noCategory,
          }}
        />
        <CheckboxField
          label={t.versions.saveAsTemplate.enabled}
          hint={t.versions.saveAsTemplate.enabledHint}
          name="enabled"
          checked={enabled}
          onChange={(event) => setEnabled(event.target.checked)}
        />
      </DialogBody>
      <FormDialogFooter pending={create.isPending} submitLabel={t.versions.saveAsTemplate.submit} pendingLabel={t.versions.saveAsTemplate.submitting} />
    </DialogForm>
  );
}

function Saved({ name }: { name: string }) {
  const { t } = useI18n();
  return (
    <>
      <DialogBody className="space-y-3">
        <Alert tone="success" testId="save-template-done">
          {t.versions.saveAsTemplate.saved(name)}
        </Alert>
        <Link href="/templates" className="text-sm font-medium text-brand-fg underline-offset-2 hover:underline">
          {t.versions.saveAsTemplate.openGallery}
        </Link>
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="primary">{t.common.close}</Button>
        </DialogClose>
      </DialogFooter>
    </>
  );
}

export function SaveAsTemplateDialog({ workflow, open, onOpenChange, onSaved }: SaveAsTemplateDialogProps) {
  const { t } = useI18n();
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setSaved(null);
        onOpenChange(next);
      }}
    >
      {open ? (
        <DialogContent title={t.versions.saveAsTemplate.title} description={saved === null ? t.versions.saveAsTemplate.description : undefined}>
          {saved === null ? (
            <SaveForm
              workflow={workflow}
              onSaved={(id, name) => {
                setSaved(name);
                onSaved?.(id);
              }}
            />
          ) : (
            <Saved name={saved} />
          )}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
