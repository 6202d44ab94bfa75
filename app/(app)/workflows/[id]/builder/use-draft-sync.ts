'use client';

/**
 * The builder's draft kept in step with the server's: autosave of the editor's graph, and what to do
 * when the server's draft moves on (another tab, a restore, a program). With nothing unsaved here,
 * the editor follows; otherwise the member chooses: load the latest (read again first, since this
 * page's copy of the workflow may predate the other save) or keep theirs (overwrite).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useWorkflowsCache, type WorkflowDetail } from '../../_lib/api';
import { draftIssuesOf } from '../../_lib/graph-issues';
import { editorGraphOf, type EditorGraph } from './model/editor-graph';
import { graphJson, useAutosave } from './use-autosave';

export function useDraftSync({ workflow, graph, readOnly, load }: { workflow: WorkflowDetail; graph: EditorGraph; readOnly: boolean; load: (graph: EditorGraph) => void }) {
  const cache = useWorkflowsCache();
  const [base, setBase] = useState(() => ({ revision: workflow.draftRevision, json: graphJson(editorGraphOf(workflow.graph)) }));
  // The newest revision this editor knows the server holds, and that revision's graph (loaded or
  // saved here): the editor is dirty when its graph differs from it, whatever was first loaded.
  const known = useRef(workflow.draftRevision);
  const savedJson = useRef(base.json);
  const onSaved = useCallback(
    (revision: number, json: string) => {
      known.current = revision;
      savedJson.current = json;
      void cache.refresh();
    },
    [cache],
  );
  const autosave = useAutosave({
    workflowId: workflow.id,
    graph,
    loadedRevision: base.revision,
    loadedJson: base.json,
    loadedIssues: draftIssuesOf(workflow.draftIssues),
    readOnly,
    onSaved,
  });

  const externalChange = workflow.draftRevision > known.current;
  const dirty = graphJson(graph) !== savedJson.current;
  const loadServerCopy = useCallback(() => {
    const server = editorGraphOf(workflow.graph);
    known.current = workflow.draftRevision;
    savedJson.current = graphJson(server);
    setBase({ revision: workflow.draftRevision, json: savedJson.current });
    load(server);
    autosave.settle(draftIssuesOf(workflow.draftIssues));
  }, [autosave, load, workflow.draftRevision, workflow.graph, workflow.draftIssues]);
  useEffect(() => {
    if (externalChange && !dirty) loadServerCopy();
  }, [externalChange, dirty, loadServerCopy]);

  const [loadingLatest, setLoadingLatest] = useState(false);
  useEffect(() => {
    if (!loadingLatest || workflow.draftRevision <= known.current) return;
    setLoadingLatest(false);
    loadServerCopy();
  }, [loadingLatest, workflow.draftRevision, loadServerCopy]);

  return {
    autosave,
    conflict: autosave.state.kind === 'conflict' || (externalChange && dirty),
    loadingLatest,
    loadLatest() {
      if (externalChange) return loadServerCopy();
      setLoadingLatest(true);
      void cache.refresh();
    },
    keepMine() {
      known.current = workflow.draftRevision;
      void autosave.overwrite();
    },
  };
}
