'use client';

/**
 * The visual workflow builder: palette, canvas and inspector over the workflow's draft. Edits are
 * undoable and save themselves (use-autosave.ts); the server's issues show on the nodes and at their
 * fields; test runs show each node's result in place. A draft changed elsewhere is never overwritten
 * silently. The assistant opens as a side panel (toolbar toggle) attached to this workflow; a
 * proposal it accepts is a draft changed elsewhere with nothing unsaved here (the panel saves the
 * pending edit first), so the editor loads it.
 */
import { ReactFlowProvider, useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { ErrorState, LoadingState } from '@/app/ui/states';
import type { WorkflowDetail } from '../../_lib/api';
import { AssistantPanel } from '../../_components/assistant/assistant-panel';
import { proposedNodeIds } from '../../_components/assistant/proposal-view';
import { useNodeTypes, type NodeType } from './api';
import { BuilderCanvas } from './canvas/builder-canvas';
import { outputLabelsOf } from './canvas/ports';
import { Inspector } from './inspector';
import { editorGraphOf, pinOutput, unpin, type EditorGraph, type XY } from './model/editor-graph';
import { placeIssues } from './model/issues';
import { unknownPathWarnings } from './model/unknown-paths';
import { Palette } from './palette';
import { ShortcutsDialog } from './shortcuts-dialog';
import { messageAfterPick, TestMessagesDialog, TestRunControls, TestRunResult, useTestRunner } from './test-run';
import { graphJson, readBackup, type SaveState } from './use-autosave';
import { useDraftSync } from './use-draft-sync';
import { useBuilder } from './use-builder';
import { useBuilderKeys, type ShortcutAction } from './use-builder-keys';
import { useBuilderLayout } from './use-builder-layout';
import { useOtherTabs } from './use-other-tabs';
import { useRegisterDraftSaver } from './draft-saver';
import { usePickerLists } from './use-form-context';

function SaveStatus({ state, issueCount }: { state: SaveState; issueCount: number }) {
  const { t } = useI18n();
  const s = t.builder.save;
  const text =
    state.kind === 'saved'
      ? issueCount > 0
        ? s.savedWithIssues(issueCount)
        : s.saved
      : state.kind === 'saving'
        ? s.saving
        : state.kind === 'pending'
          ? s.pending
          : state.kind === 'invalid'
            ? s.invalid(state.issues.length)
            : state.kind === 'conflict'
              ? s.conflict
              : s.failed;
  const tone = state.kind === 'invalid' || state.kind === 'error' || state.kind === 'conflict' ? 'text-red-700 dark:text-red-400' : 'text-muted';
  return (
    <span role="status" className={`text-xs ${tone}`} data-testid="builder-save-status" data-state={state.kind}>
      {text}
    </span>
  );
}

function initialGraphOf(workflow: WorkflowDetail): { graph: EditorGraph; restored: boolean } {
  const loaded = editorGraphOf(workflow.graph);
  const backup = typeof window === 'undefined' ? null : readBackup(workflow.id);
  if (backup && backup.baseRevision === workflow.draftRevision && graphJson(backup.graph) !== graphJson(loaded)) return { graph: backup.graph, restored: true };
  return { graph: loaded, restored: false };
}

function BuilderInner({ workflow, types }: { workflow: WorkflowDetail; types: NodeType[] }) {
  const { t } = useI18n();
  const b = t.builder;
  const flow = useReactFlow();
  const store = useStoreApi();
  const readOnly = workflow.status === 'archived';
  const typesByName = useMemo(() => new Map(types.map((type) => [type.type, type])), [types]);
  const [initial] = useState(() => initialGraphOf(workflow));
  const builder = useBuilder(initial.graph);
  const [helpOpen, setHelpOpen] = useState(false);
  const [messagesOpen, setMessagesOpen] = useState(false);
  const [pasteRefused, setPasteRefused] = useState(false);
  const [assistantOpen, setAssistantOpen] = useState(false);
  const [layout, toggleLayout] = useBuilderLayout();
  const otherTab = useOtherTabs(workflow.id);
  const root = useRef<HTMLDivElement>(null);

  const { autosave, conflict, loadingLatest, loadLatest, keepMine } = useDraftSync({ workflow, graph: builder.graph, readOnly, load: builder.load });
  const runner = useTestRunner(workflow, autosave.flush);
  useRegisterDraftSaver(autosave.flush);
  const lists = usePickerLists();

  // An accepted proposal arrives as a draft changed elsewhere (use-draft-sync.ts loads it): once its
  // nodes are in the editor, the view fits them, since the new steps may lie outside it.
  const fitWhenLoaded = useRef<string[] | null>(null);
  const graphNow = useRef(builder.graph);
  graphNow.current = builder.graph;
  const fitIfLoaded = useCallback(() => {
    const ids = fitWhenLoaded.current;
    if (!ids) return;
    const present = new Set(graphNow.current.nodes.map((node) => node.id));
    if (!ids.every((id) => present.has(id))) return;
    fitWhenLoaded.current = null;
    // Twice: nodes off screen are not rendered (onlyRenderVisibleElements), so they have no size until the
    // first fit brings them in; the second fit counts them whole.
    window.setTimeout(() => void flow.fitView({ padding: 0.2 }), 50);
    window.setTimeout(() => void flow.fitView({ padding: 0.2, duration: 200 }), 300);
  }, [flow]);
  useEffect(fitIfLoaded, [builder.graph, fitIfLoaded]);

  // The draft's issues (saved with it, or why a save was refused), placed by the graph the server checked.
  // With them, a warning for each expression path that matches nothing known (never blocking).
  const issues = useMemo(() => {
    const checked = autosave.issues.graph ?? builder.graph;
    const warnings = unknownPathWarnings(checked, { outputSchemaOf: (name) => typesByName.get(name)?.outputSchema, run: runner.detail ?? null }, t.params.issues.unknownPath);
    return placeIssues(checked, [...autosave.issues.list, ...warnings]);
  }, [builder.graph, autosave.issues, typesByName, runner.detail, t]);

  const viewCentre = useCallback((): XY => {
    const box = root.current?.querySelector('[data-testid="builder-canvas"]')?.getBoundingClientRect();
    const point = box ? flow.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 }) : { x: 0, y: 0 };
    return { x: Math.round(point.x - 104), y: Math.round(point.y - 30) };
  }, [flow]);

  const onAction = (action: ShortcutAction) => {
    if (readOnly && !['fit', 'help', 'selectAll', 'fullWindow'].includes(action)) return;
    switch (action) {
      case 'undo':
        return builder.undo();
      case 'redo':
        return builder.redo();
      case 'duplicate':
        return builder.duplicateSelected();
      case 'delete':
        return builder.removeSelected();
      case 'disable':
        return builder.toggleDisabledSelected();
      case 'tidy':
        builder.tidy({ outputLabels: (node) => outputLabelsOf(node, typesByName.get(node.type), b.ports) });
        return void window.setTimeout(() => void flow.fitView({ padding: 0.2, duration: 200 }), 50);
      case 'note':
        return builder.addNoteAt(viewCentre());
      case 'fit':
        return void flow.fitView({ padding: 0.2, duration: 200 });
      case 'fullWindow':
        return toggleLayout('fullWindow');
      case 'save':
        return void autosave.flush();
      case 'test':
        return void runner.start();
      case 'help':
        return setHelpOpen(true);
      case 'selectAll':
        return store.getState().addSelectedNodes([...builder.graph.nodes.map((node) => node.id), ...builder.graph.notes.map((note) => note.id)]);
    }
  };
  useBuilderKeys(root, {
    onAction,
    onCopy: () => builder.copySelected(),
    onCut: () => {
      const text = builder.copySelected();
      if (text !== null && !readOnly) builder.removeSelected();
      return text;
    },
    onPaste: (text) => {
      if (readOnly) return;
      setPasteRefused(!builder.paste(text, viewCentre()));
    },
  });

  const hasTrigger = builder.graph.nodes.some((node) => typesByName.get(node.type)?.trigger);

  return (
    // Focusable (not in the tab order): a click on the canvas background focuses the builder, not an
    // ancestor such as the workflow page's tab panel, so the shortcuts and the clipboard keep working.
    <div
      ref={root}
      tabIndex={-1}
      className={cn(
        'flex flex-col overflow-hidden outline-none',
        // Full window: over the app's header and navigation, the canvas taking what the panels leave.
        layout.fullWindow ? 'fixed inset-0 z-40 bg-canvas' : 'h-[calc(100vh-13rem)] min-h-[560px] rounded-lg border border-line',
      )}
      data-testid="builder"
      data-full-window={layout.fullWindow}
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-line bg-surface px-2 py-1.5" role="toolbar" aria-label={b.toolbar}>
        <Button size="sm" variant="ghost" onClick={builder.undo} disabled={!builder.canUndo || readOnly} data-testid="builder-undo">
          {b.actions.undo}
        </Button>
        <Button size="sm" variant="ghost" onClick={builder.redo} disabled={!builder.canRedo || readOnly} data-testid="builder-redo">
          {b.actions.redo}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onAction('tidy')} disabled={readOnly} data-testid="builder-tidy">
          {b.actions.tidy}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onAction('note')} disabled={readOnly} data-testid="builder-add-note">
          {b.actions.note}
        </Button>
        <Button size="sm" variant={layout.palette ? 'secondary' : 'ghost'} aria-pressed={layout.palette} onClick={() => toggleLayout('palette')} data-testid="builder-palette-toggle">
          {b.actions.palette}
        </Button>
        <Button size="sm" variant={layout.panel ? 'secondary' : 'ghost'} aria-pressed={layout.panel} onClick={() => toggleLayout('panel')} data-testid="builder-panel-toggle">
          {b.actions.panel}
        </Button>
        <Button size="sm" variant="ghost" aria-pressed={layout.fullWindow} onClick={() => toggleLayout('fullWindow')} title="Shift+F" data-testid="builder-full-window">
          {layout.fullWindow ? b.actions.exitFullWindow : b.actions.fullWindow}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setHelpOpen(true)} data-testid="builder-shortcuts">
          {b.actions.shortcuts}
        </Button>
        <Button
          size="sm"
          variant={assistantOpen ? 'secondary' : 'ghost'}
          aria-pressed={assistantOpen}
          onClick={() => setAssistantOpen((open) => !open)}
          data-testid="builder-assistant-toggle"
        >
          {t.assistant.builderToggle}
        </Button>
        <SaveStatus state={autosave.state} issueCount={autosave.issues.list.filter((issue) => issue.severity !== 'warning').length} />
        <div className="ml-auto">
          <TestRunControls workflow={workflow} runner={runner} readOnly={readOnly} onPickMessages={() => setMessagesOpen(true)} />
        </div>
      </div>
      {initial.restored ? (
        <Alert tone="info" testId="builder-restored" className="rounded-none border-x-0 border-t-0">
          {b.restored}
        </Alert>
      ) : null}
      {otherTab && !conflict ? (
        <Alert tone="warning" testId="builder-other-tab" className="rounded-none border-x-0 border-t-0">
          {b.otherTab}
        </Alert>
      ) : null}
      {conflict ? (
        <Alert
          tone="warning"
          testId="builder-conflict"
          className="rounded-none border-x-0 border-t-0"
          action={
            <span className="flex gap-2">
              <Button
                size="sm"
                loading={loadingLatest}
                onClick={loadLatest}
                data-testid="builder-load-latest"
              >
                {b.conflict.load}
              </Button>
              <Button
                size="sm"
                variant="primary"
                onClick={keepMine}
                data-testid="builder-overwrite"
              >
                {b.conflict.keep}
              </Button>
            </span>
          }
        >
          {b.conflict.text}
        </Alert>
      ) : null}
      {autosave.state.kind === 'error' ? (
        <Alert tone="danger" testId="builder-save-error" className="rounded-none border-x-0 border-t-0">
          {describeError(autosave.state.error, t)}
        </Alert>
      ) : null}
      {pasteRefused ? (
        <Alert tone="info" className="rounded-none border-x-0 border-t-0" testId="builder-paste-refused">
          {b.pasteRefused}
        </Alert>
      ) : null}
      {/* With the assistant open, the palette gives up its place unless the screen is very wide (the canvas keeps its own). */}
      {/* Without the assistant, the palette and the panel take their column only when shown (the layout toggles). */}
      <div
        className={cn(
          'grid min-h-0 flex-1',
          assistantOpen && 'grid-cols-[minmax(0,1fr)_300px_380px] min-[1920px]:grid-cols-[220px_minmax(0,1fr)_300px_400px]',
        )}
        style={assistantOpen ? undefined : { gridTemplateColumns: [layout.palette ? '220px' : null, 'minmax(0,1fr)', layout.panel ? '340px' : null].filter(Boolean).join(' ') }}
      >
        <div className={assistantOpen ? 'hidden min-[1920px]:contents' : layout.palette ? 'contents' : 'hidden'}>
          <Palette types={types} hasTrigger={hasTrigger} readOnly={readOnly} onAdd={(type) => builder.addNodeOfType(type, viewCentre())} />
        </div>
        <div className="flex min-h-0 flex-col">
          <div className="min-h-0 flex-1">
            <BuilderCanvas
              graph={builder.graph}
              typesByName={typesByName}
              statusByNode={runner.statusByNode}
              issues={issues}
              readOnly={readOnly}
              onCommit={builder.commit}
              selectRequest={builder.selectRequest}
              onSelectionChange={builder.onSelectionChange}
              onDropType={(type, position) => builder.addNodeOfType(type, position)}
            />
          </div>
          <div className="border-t border-line px-3 py-1.5 empty:hidden">
            <TestRunResult runner={runner} />
          </div>
        </div>
        <aside
          aria-label={b.inspector.label}
          className={cn('min-h-0 overflow-y-auto border-l border-line bg-surface', !assistantOpen && !layout.panel && 'hidden')}
          data-testid="builder-inspector"
        >
          <Inspector
            builder={builder}
            graph={builder.graph}
            typesByName={typesByName}
            issues={issues}
            stepsByNode={runner.stepsByNode}
            run={runner.detail}
            lists={lists}
            readOnly={readOnly}
            onRunUpTo={(nodeId) => void runner.start(nodeId)}
            onPin={(nodeId) => {
              const step = runner.stepsByNode.get(nodeId);
              if (step) builder.commit(pinOutput(builder.graph, nodeId, step.data, step.output ?? undefined, new Date()));
            }}
            onUnpin={(nodeId) => builder.commit(unpin(builder.graph, nodeId))}
          />
        </aside>
        {assistantOpen ? (
          <aside
            aria-label={t.assistant.builderPanel}
            className="flex min-h-0 flex-col border-l border-line bg-surface"
            data-testid="builder-assistant"
            data-builder-shortcuts="off"
          >
            <AssistantPanel
              workflowId={workflow.id}
              saveDraft={readOnly ? undefined : autosave.flush}
              onAccepted={(proposal) => {
                fitWhenLoaded.current = proposedNodeIds(proposal.graph);
                fitIfLoaded();
              }}
              onClose={() => setAssistantOpen(false)}
              className="m-2 min-h-0 flex-1"
            />
          </aside>
        ) : null}
      </div>
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
      {messagesOpen ? (
        <TestMessagesDialog
          workflow={workflow}
          open={messagesOpen}
          onOpenChange={setMessagesOpen}
          onSaved={(chosen, before) => runner.setMessageId(messageAfterPick(runner.messageId, before, chosen))}
        />
      ) : null}
    </div>
  );
}

export function WorkflowBuilder({ workflow }: { workflow: WorkflowDetail }) {
  const nodeTypes = useNodeTypes();
  if (nodeTypes.isPending) return <LoadingState rows={4} />;
  if (nodeTypes.isError) return <ErrorState error={nodeTypes.error} onRetry={() => nodeTypes.refetch()} testId="builder-error" />;
  return (
    <ReactFlowProvider>
      <BuilderInner workflow={workflow} types={nodeTypes.data.nodeTypes} />
    </ReactFlowProvider>
  );
}
