'use client';

/**
 * Drafts save themselves: an edit is sent (PUT …/graph with the revision it builds on) once the
 * member pauses. An incomplete draft saves: the server answers its issues (what publishing and test
 * runs would refuse), shown on the nodes and at their fields in the member's language. What the
 * server refuses outright (a graph it cannot keep) stays in the editor, with its issues shown in
 * place, and a copy in this browser (localStorage) so closing the tab loses nothing.
 * A save that finds the draft changed elsewhere (another tab, a restore, the API) is a conflict: the
 * member chooses to load that version or to keep theirs (overwrite); nothing is overwritten silently.
 */
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorCodeOf } from '@/app/lib/errors';
import { useI18n } from '@/app/i18n/client';
import { draftIssuesOf, graphIssuesOf, type GraphIssue } from '../../_lib/graph-issues';
import { issuesInWords } from '../../_lib/issue-words';
import { useBuilderMutations } from './api';
import { storedGraphOf, type EditorGraph } from './model/editor-graph';

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'pending' }
  | { kind: 'saving' }
  | { kind: 'invalid'; issues: GraphIssue[] }
  | { kind: 'conflict' }
  | { kind: 'error'; error: unknown };

export const autosaveDelayMs = 800;

const backupKey = (workflowId: string) => `mailflow.builder.${workflowId}`;

export interface LocalBackup {
  baseRevision: number;
  graph: EditorGraph;
}

export function readBackup(workflowId: string): LocalBackup | null {
  try {
    const raw = window.localStorage.getItem(backupKey(workflowId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as LocalBackup;
    return typeof parsed?.baseRevision === 'number' && parsed.graph && Array.isArray(parsed.graph.nodes) ? parsed : null;
  } catch {
    return null;
  }
}

function writeBackup(workflowId: string, backup: LocalBackup | null): void {
  try {
    if (backup) window.localStorage.setItem(backupKey(workflowId), JSON.stringify(backup));
    else window.localStorage.removeItem(backupKey(workflowId));
  } catch {
    // A full or disabled storage only loses the safety copy, never the editor's state.
  }
}

export const graphJson = (graph: EditorGraph) => JSON.stringify(storedGraphOf(graph));

/** The issues of the last graph the server answered about, and that graph (its paths index it). */
export interface DraftIssues {
  graph: EditorGraph | null;
  list: GraphIssue[];
}

export function useAutosave({
  workflowId,
  graph,
  loadedRevision,
  loadedJson,
  loadedIssues,
  readOnly,
  onSaved,
}: {
  workflowId: string;
  graph: EditorGraph;
  /** The draft revision the editor's content builds on (the server's, when loaded). */
  loadedRevision: number;
  /** The stored form of what was loaded, to tell an edit from the loaded state. */
  loadedJson: string;
  /** The issues the server found in the loaded draft (`draftIssues`). */
  loadedIssues: readonly GraphIssue[];
  readOnly: boolean;
  /** A save succeeded: the server's new revision and the stored form of what it holds now. */
  onSaved: (revision: number, json: string) => void;
}) {
  const mutations = useBuilderMutations();
  const put = useMutation(mutations.putGraph);
  const [state, setState] = useState<SaveState>({ kind: 'saved' });
  const { t } = useI18n();
  const words = useRef(t.params.issues);
  words.current = t.params.issues;
  const [issues, setIssues] = useState<DraftIssues>(() => ({ graph: null, list: issuesInWords(loadedIssues, t.params.issues) }));
  const base = useRef({ revision: loadedRevision, json: loadedJson });
  const inFlight = useRef<Promise<boolean> | null>(null);
  const latest = useRef(graph);
  latest.current = graph;
  // The mutation object and the callback change identity on every render; the save reads them here
  // so that the debounce effect below depends on the edited graph only.
  const io = useRef({ mutateAsync: put.mutateAsync, onSaved });
  io.current = { mutateAsync: put.mutateAsync, onSaved };

  // A reload from the server (first load, "load the latest", a restore) moves the base.
  useEffect(() => {
    base.current = { revision: loadedRevision, json: loadedJson };
  }, [loadedRevision, loadedJson]);

  const save = useCallback(
    async (overwrite = false): Promise<boolean> => {
      const sent = latest.current;
      const json = graphJson(sent);
      if (json === base.current.json && !overwrite) {
        setState({ kind: 'saved' });
        return true;
      }
      setState({ kind: 'saving' });
      try {
        const answer = await io.current.mutateAsync({
          id: workflowId,
          graph: storedGraphOf(sent),
          ...(overwrite ? {} : { draftRevision: base.current.revision }),
        });
        base.current = { revision: answer.draftRevision, json };
        setIssues({ graph: sent, list: issuesInWords(draftIssuesOf(answer.issues), words.current) });
        io.current.onSaved(answer.draftRevision, json);
        const upToDate = graphJson(latest.current) === json;
        if (upToDate) writeBackup(workflowId, null);
        setState(upToDate ? { kind: 'saved' } : { kind: 'pending' });
        return upToDate;
      } catch (error) {
        writeBackup(workflowId, { baseRevision: base.current.revision, graph: sent });
        const code = errorCodeOf(error);
        if (code === 'workflow.revision_conflict') setState({ kind: 'conflict' });
        else if (code === 'workflow.invalid_graph') {
          const refused = issuesInWords(graphIssuesOf(error), words.current);
          setState({ kind: 'invalid', issues: refused });
          setIssues({ graph: sent, list: refused });
        }
        else setState({ kind: 'error', error });
        return false;
      }
    },
    [workflowId],
  );

  const run = useCallback(
    (overwrite = false) => {
      const attempt = (inFlight.current ?? Promise.resolve(true)).then(() => save(overwrite));
      inFlight.current = attempt.finally(() => {
        if (inFlight.current === attempt) inFlight.current = null;
      });
      return attempt;
    },
    [save],
  );

  const saveRef = useRef(() => run());
  saveRef.current = () => run();

  // Debounced save after each edit; a conflict waits for the member's choice.
  const json = graphJson(graph);
  const blocked = state.kind === 'conflict' || readOnly;
  useEffect(() => {
    if (blocked || json === base.current.json) return;
    setState((current) => (current.kind === 'invalid' || current.kind === 'pending' ? current : { kind: 'pending' }));
    const timer = window.setTimeout(() => void run(), autosaveDelayMs);
    return () => window.clearTimeout(timer);
  }, [json, blocked, run]);

  // Leaving with an unsaved edit: keep the browser copy and let the browser ask.
  useEffect(() => {
    function beforeUnload(event: BeforeUnloadEvent) {
      if (graphJson(latest.current) === base.current.json) return;
      writeBackup(workflowId, { baseRevision: base.current.revision, graph: latest.current });
      event.preventDefault();
    }
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      // Leaving the page inside the app (a link): the pending edit is saved now, and kept here until it is.
      if (graphJson(latest.current) !== base.current.json) {
        writeBackup(workflowId, { baseRevision: base.current.revision, graph: latest.current });
        void saveRef.current();
      }
    };
  }, [workflowId]);

  return {
    state,
    /** Saves now (before a test run or a publish); true when the draft on the server is the editor's. */
    flush: () => (blocked ? Promise.resolve(false) : run()),
    overwrite: () => run(true),
    /** The draft's issues (saved with it, or why it was refused), with the graph their paths index. */
    issues,
    /** After loading the server's copy (and its issues): nothing to save, no backup. */
    settle: (serverIssues: readonly GraphIssue[] = []) => {
      writeBackup(workflowId, null);
      setState({ kind: 'saved' });
      setIssues({ graph: null, list: issuesInWords(serverIssues, words.current) });
    },
  };
}
