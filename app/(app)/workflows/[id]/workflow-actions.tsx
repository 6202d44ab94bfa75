'use client';

/**
 * The header's actions on one workflow: test run, publish (with a note), pause / resume, and in a menu
 * unpublish, undo its runs' mailbox changes in a window, archive and delete, each confirmed. Errors of
 * an action show under the header.
 */
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button, buttonClasses } from '@/app/ui/button';
import { ConfirmDialog, Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/app/ui/dropdown-menu';
import { TextareaField, TextField } from '@/app/ui/field';
import { ActivityIcon, ArchiveIcon, MoreIcon, SendIcon, TrashIcon, UndoIcon } from '@/app/ui/icons';
import { BulkUndoDialog } from '../../executions/_components/bulk-undo-dialog';
import { useWorkflowMutations, useWorkflowsCache, type WorkflowDetail } from '../_lib/api';
import { GraphIssueList } from '../_components/graph-issue-list';
import { DraftVsPublished } from '../_components/versions/draft-vs-published';
import { SaveAsTemplateDialog } from '../_components/versions/save-as-template-dialog';
import { useMe } from '../../_shell/_lib/api';
import { useSaveDraft } from './builder/draft-saver';
import { graphIssuesOf, parseGraphText } from '../_lib/graph-issues';

type Confirm = 'unpublish' | 'archive' | 'delete' | null;

function PublishDialog({ workflow, open, onOpenChange }: { workflow: WorkflowDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const cache = useWorkflowsCache();
  const mutations = useWorkflowMutations();
  const [note, setNote] = useState('');
  const [notSaved, setNotSaved] = useState(false);
  const saveDraft = useSaveDraft();
  const publish = useMutation({
    ...mutations.publish,
    onSuccess: async () => {
      await cache.refresh();
      setNote('');
      onOpenChange(false);
    },
  });
  const issues = publish.isError ? graphIssuesOf(publish.error) : [];
  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotSaved(false);
    // The editor's last edit goes first: what is published is what the member sees.
    if (!(await saveDraft())) {
      setNotSaved(true);
      return;
    }
    publish.mutate({ id: workflow.id, ...(note.trim() ? { note: note.trim() } : {}) });
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) publish.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent title={t.workflows.publishDialog.title} description={t.workflows.publishDialog.description}>
        <DialogForm onSubmit={submit}>
          <DialogBody className="space-y-4">
            {publish.isError && issues.length === 0 ? (
              <Alert tone="danger" testId="publish-error">
                {describeError(publish.error, t)}
              </Alert>
            ) : null}
            {notSaved ? (
              <Alert tone="warning" testId="publish-not-saved">
                {t.builder.save.publishBlocked}
              </Alert>
            ) : null}
            <GraphIssueList issues={issues} testId="publish-issues" />
            <DraftVsPublished workflow={workflow} className="max-h-72 overflow-y-auto" />
            <TextField
              label={t.workflows.publishDialog.note}
              optional={t.common.optional}
              name="note"
              maxLength={500}
              autoComplete="off"
              placeholder={t.workflows.publishDialog.notePlaceholder}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </DialogBody>
          <FormDialogFooter pending={publish.isPending} submitLabel={t.workflows.publishDialog.submit} pendingLabel={t.workflows.publishDialog.submitting} />
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}

function TestRunDialog({ workflow, open, onOpenChange }: { workflow: WorkflowDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const mutations = useWorkflowMutations();
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string>();
  const saveDraft = useSaveDraft();
  const testRun = useMutation({
    ...mutations.testRun,
    onSuccess: ({ executionId }) => {
      onOpenChange(false);
      router.push(`/executions/${executionId}`);
    },
  });
  const issues = testRun.isError ? graphIssuesOf(testRun.error) : [];
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseGraphText(text);
    if (!parsed.ok) {
      setTextError(parsed.reason === 'not_json' ? t.workflows.graphErrors.notJson(parsed.detail ?? '') : t.workflows.graphErrors.notObject);
      return;
    }
    void saveDraft().then(() => testRun.mutate({ id: workflow.id, ...(parsed.graph ? { triggerData: parsed.graph } : {}) }));
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) testRun.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent size="lg" title={t.workflows.testRun.title} description={t.workflows.testRun.description}>
        <DialogForm onSubmit={submit}>
          <DialogBody className="space-y-4">
            {testRun.isError && issues.length === 0 ? (
              <Alert tone="danger" testId="test-run-error">
                {describeError(testRun.error, t)}
              </Alert>
            ) : null}
            <GraphIssueList issues={issues} testId="test-run-issues" />
            <TextareaField
              label={t.workflows.testRun.triggerData}
              optional={t.common.optional}
              name="triggerData"
              rows={8}
              spellCheck={false}
              className="font-mono text-[12px] leading-4"
              hint={t.workflows.testRun.triggerDataHint}
              placeholder='{"orderId": 42}'
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setTextError(undefined);
              }}
              error={textError}
            />
          </DialogBody>
          <FormDialogFooter pending={testRun.isPending} submitLabel={t.workflows.testRun.submit} pendingLabel={t.workflows.testRun.submitting} />
        </DialogForm>
      </DialogContent>
    </Dialog>
  );
}

export function WorkflowActions({ workflow }: { workflow: WorkflowDetail }) {
  const { t } = useI18n();
  const router = useRouter();
  const cache = useWorkflowsCache();
  const mutations = useWorkflowMutations();
  const [publishOpen, setPublishOpen] = useState(false);
  const [testOpen, setTestOpen] = useState(false);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [templateOpen, setTemplateOpen] = useState(false);
  const [undoRunsOpen, setUndoRunsOpen] = useState(false);
  const me = useMe();

  const settle = { onSuccess: () => void cache.refresh() };
  const pause = useMutation({ ...mutations.pause, ...settle });
  const resume = useMutation({ ...mutations.resume, ...settle });
  const unpublish = useMutation({ ...mutations.unpublish, onSuccess: async () => (await cache.refresh(), setConfirm(null)) });
  const archive = useMutation({ ...mutations.archive, onSuccess: async () => (await cache.refresh(), setConfirm(null)) });
  const remove = useMutation({
    ...mutations.remove,
    onSuccess: async () => {
      setConfirm(null);
      cache.forget(workflow.id);
      await cache.refresh();
      router.push('/workflows');
    },
  });

  const archived = workflow.status === 'archived';
  const live = workflow.status === 'published' || workflow.status === 'paused';
  const inlineError = pause.error ?? resume.error;
  const confirmMutation = confirm === 'unpublish' ? unpublish : confirm === 'archive' ? archive : remove;
  const confirmTexts =
    confirm === 'unpublish'
      ? { title: t.workflows.unpublishConfirm.title, body: t.workflows.unpublishConfirm.body, label: t.workflows.unpublishConfirm.confirm }
      : confirm === 'archive'
        ? { title: t.workflows.archiveConfirm.title, body: t.workflows.archiveConfirm.body, label: t.workflows.archiveConfirm.confirm }
        : { title: t.workflows.deleteConfirm.title(workflow.name), body: t.workflows.deleteConfirm.body, label: t.workflows.deleteConfirm.confirm };

  return (
    <div className="flex shrink-0 flex-col items-stretch gap-2 lg:items-end">
      <div className="flex flex-wrap gap-2">
        <Link href={`/executions?workflowId=${encodeURIComponent(workflow.id)}`} className={buttonClasses('ghost')} data-testid="workflow-executions-link">
          <ActivityIcon />
          {t.workflows.actions.executions}
        </Link>
        {!archived ? <Button onClick={() => setTestOpen(true)}>{t.workflows.actions.testRun}</Button> : null}
        {workflow.status === 'published' ? (
          <Button loading={pause.isPending} onClick={() => pause.mutate({ id: workflow.id })}>
            {t.workflows.actions.pause}
          </Button>
        ) : null}
        {workflow.status === 'paused' ? (
          <Button loading={resume.isPending} onClick={() => resume.mutate({ id: workflow.id })}>
            {t.workflows.actions.resume}
          </Button>
        ) : null}
        {!archived ? (
          <Button variant="primary" onClick={() => setPublishOpen(true)}>
            <SendIcon />
            {t.workflows.actions.publish}
          </Button>
        ) : null}
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button size="icon" variant="ghost" aria-label={t.workflows.actions.more}>
              <MoreIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {live ? <DropdownMenuItem onSelect={() => setConfirm('unpublish')}>{t.workflows.actions.unpublish}</DropdownMenuItem> : null}
            {me.data?.role === 'admin' ? <DropdownMenuItem onSelect={() => setTemplateOpen(true)}>{t.versions.saveAsTemplate.open}</DropdownMenuItem> : null}
            <DropdownMenuItem onSelect={() => setUndoRunsOpen(true)}>
              <UndoIcon />
              {t.undo.bulk.open}
            </DropdownMenuItem>
            {!archived ? (
              <DropdownMenuItem onSelect={() => setConfirm('archive')}>
                <ArchiveIcon />
                {t.workflows.actions.archive}
              </DropdownMenuItem>
            ) : null}
            <DropdownMenuItem onSelect={() => setConfirm('delete')} className="text-red-700 dark:text-red-400 [&_svg]:!text-current">
              <TrashIcon />
              {t.workflows.actions.delete}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {inlineError ? (
        <Alert tone="danger" testId="workflow-action-error">
          {describeError(inlineError, t)}
        </Alert>
      ) : null}
      <PublishDialog workflow={workflow} open={publishOpen} onOpenChange={setPublishOpen} />
      <TestRunDialog workflow={workflow} open={testOpen} onOpenChange={setTestOpen} />
      {templateOpen ? <SaveAsTemplateDialog workflow={workflow} open={templateOpen} onOpenChange={setTemplateOpen} /> : null}
      <BulkUndoDialog workflowId={workflow.id} open={undoRunsOpen} onOpenChange={setUndoRunsOpen} />
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => {
          if (!open) {
            setConfirm(null);
            unpublish.reset();
            archive.reset();
            remove.reset();
          }
        }}
        title={confirmTexts.title}
        description={confirmTexts.body}
        confirmLabel={confirmTexts.label}
        tone={confirm === 'unpublish' ? 'primary' : 'danger'}
        pending={confirmMutation.isPending}
        error={
          confirmMutation.isError ? (
            <Alert tone="danger" testId="workflow-confirm-error">
              {describeError(confirmMutation.error, t)}
            </Alert>
          ) : null
        }
        onConfirm={() => confirmMutation.mutate({ id: workflow.id })}
      />
    </div>
  );
}
