'use client';

/** A new draft from a name and, optionally, a whole graph in JSON; then straight to its page. */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { TextareaField, TextField } from '@/app/ui/field';
import { useWorkflowMutations, useWorkflowsCache } from '../_lib/api';
import { graphIssuesOf, parseGraphText } from '../_lib/graph-issues';
import { GraphIssueList } from './graph-issue-list';

function CreateWorkflowForm({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const cache = useWorkflowsCache();
  const mutations = useWorkflowMutations();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [graphText, setGraphText] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [graphError, setGraphError] = useState<string>();

  const create = useMutation({
    ...mutations.create,
    onSuccess: async ({ workflow }) => {
      await cache.refresh();
      onDone();
      router.push(`/workflows/${workflow.id}`);
    },
  });
  const issues = create.isError ? graphIssuesOf(create.error) : [];

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseGraphText(graphText);
    const nextNameError = name.trim() ? undefined : t.workflows.create.nameRequired;
    const nextGraphError = parsed.ok ? undefined : parsed.reason === 'not_json' ? t.workflows.graphErrors.notJson(parsed.detail ?? '') : t.workflows.graphErrors.notObject;
    setNameError(nextNameError);
    setGraphError(nextGraphError);
    if (nextNameError || !parsed.ok) return;
    create.mutate({
      name: name.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
      // The server validates the graph and answers its issues with their paths.
      ...(parsed.graph ? { graph: parsed.graph } : {}),
    });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {create.isError && issues.length === 0 ? (
          <Alert tone="danger" testId="create-workflow-error">
            {describeError(create.error, t)}
          </Alert>
        ) : null}
        <TextField
          label={t.workflows.create.name}
          name="name"
          autoFocus
          autoComplete="off"
          maxLength={200}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(undefined);
          }}
          error={nameError}
        />
        <TextareaField
          label={t.workflows.create.descriptionField}
          optional={t.common.optional}
          name="description"
          rows={2}
          maxLength={2000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <TextareaField
          label={t.workflows.create.graph}
          optional={t.common.optional}
          name="graph"
          rows={12}
          spellCheck={false}
          className="font-mono text-[12px] leading-4"
          hint={t.workflows.create.graphHint}
          value={graphText}
          onChange={(event) => {
            setGraphText(event.target.value);
            setGraphError(undefined);
          }}
          error={graphError}
        />
        <GraphIssueList issues={issues} testId="create-workflow-issues" />
      </DialogBody>
      <FormDialogFooter pending={create.isPending} submitLabel={t.workflows.create.submit} pendingLabel={t.workflows.create.submitting} />
    </DialogForm>
  );
}

export function CreateWorkflowDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" title={t.workflows.create.title} description={t.workflows.create.description}>
        {open ? <CreateWorkflowForm onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
