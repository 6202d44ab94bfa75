'use client';

/**
 * The draft graph as JSON: edit, then save it whole (PUT …/graph with the revision it was loaded
 * at). The server's issues show at their paths; a draft changed elsewhere meanwhile is a conflict the
 * member resolves by discarding or overwriting.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError, errorCodeOf } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { TextareaField } from '@/app/ui/field';
import { useWorkflowMutations, useWorkflowsCache, type WorkflowDetail } from '../_lib/api';
import { graphIssuesOf, graphText, parseGraphText } from '../_lib/graph-issues';
import { GraphIssueList } from '../_components/graph-issue-list';

export function GraphEditor({ workflow }: { workflow: WorkflowDetail }) {
  const { t } = useI18n();
  const cache = useWorkflowsCache();
  const mutations = useWorkflowMutations();
  const loaded = graphText(workflow.graph);
  const [text, setText] = useState(loaded);
  const [baseText, setBaseText] = useState(loaded);
  const [baseRevision, setBaseRevision] = useState(workflow.draftRevision);
  const [parseError, setParseError] = useState<string>();
  const [savedRevision, setSavedRevision] = useState<number | null>(null);
  const dirty = text !== baseText;

  // The draft changed on the server (another tab, a publish): follow it unless the member is editing.
  if (workflow.draftRevision !== baseRevision && !dirty) {
    setText(loaded);
    setBaseText(loaded);
    setBaseRevision(workflow.draftRevision);
  }

  const save = useMutation({
    ...mutations.putGraph,
    onSuccess: async (answer) => {
      const stored = graphText(answer.graph);
      setText(stored);
      setBaseText(stored);
      setBaseRevision(answer.draftRevision);
      setSavedRevision(answer.draftRevision);
      await cache.refresh();
    },
  });
  const issues = save.isError ? graphIssuesOf(save.error) : [];
  const conflict = save.isError && errorCodeOf(save.error) === 'workflow.revision_conflict';
  const readOnly = workflow.status === 'archived';

  function send(overwrite: boolean) {
    const parsed = parseGraphText(text);
    if (!parsed.ok) {
      setParseError(parsed.reason === 'not_json' ? t.workflows.graphErrors.notJson(parsed.detail ?? '') : t.workflows.graphErrors.notObject);
      return;
    }
    setSavedRevision(null);
    save.mutate({ id: workflow.id, graph: parsed.graph ?? {}, ...(overwrite ? {} : { draftRevision: baseRevision }) });
  }

  function discard() {
    save.reset();
    setParseError(undefined);
    setText(loaded);
    setBaseText(loaded);
    setBaseRevision(workflow.draftRevision);
  }

  return (
    <form
      noValidate
      className="space-y-3"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        send(false);
      }}
    >
      <TextareaField
        label={
          <span className="inline-flex items-center gap-2">
            {t.workflows.editor.label}
            {dirty ? <Badge tone="warning">{t.workflows.editor.unsaved}</Badge> : null}
          </span>
        }
        name="graph"
        rows={24}
        spellCheck={false}
        readOnly={readOnly}
        className="font-mono text-[12px] leading-4"
        hint={t.workflows.editor.hint}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setParseError(undefined);
          setSavedRevision(null);
        }}
        error={parseError}
      />
      <GraphIssueList issues={issues} testId="graph-editor-issues" />
      {conflict ? (
        <Alert
          tone="warning"
          testId="graph-editor-conflict"
          action={
            <Button size="sm" onClick={() => send(true)} loading={save.isPending}>
              {t.workflows.editor.overwrite}
            </Button>
          }
        >
          {t.workflows.editor.conflict}
        </Alert>
      ) : save.isError && issues.length === 0 ? (
        <Alert tone="danger" testId="graph-editor-error">
          {describeError(save.error, t)}
        </Alert>
      ) : null}
      {savedRevision !== null ? (
        <Alert tone="success" testId="graph-editor-saved">
          {t.workflows.editor.saved(savedRevision)}
        </Alert>
      ) : null}
      {!readOnly ? (
        <div className="flex gap-2">
          <Button type="submit" variant="primary" loading={save.isPending} disabled={!dirty && !save.isError}>
            {save.isPending ? t.workflows.editor.saving : t.workflows.editor.save}
          </Button>
          <Button onClick={discard} disabled={!dirty || save.isPending}>
            {t.workflows.editor.reset}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
