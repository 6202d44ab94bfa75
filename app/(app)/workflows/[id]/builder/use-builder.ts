'use client';

/**
 * The builder's editing state: the graph with its undo history, the canvas selection, and the edits
 * the toolbar, the palette, the inspector and the shortcuts share. Every edit is one undo step.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { NodeType } from './api';
import type { CanvasSelection } from './canvas/builder-canvas';
import { autoLayout } from './model/auto-layout';
import { copySelection, duplicateSelection, pasteContent, readClipboard } from './model/clipboard';
import {
  addNode,
  addNote,
  disconnect,
  moveItems,
  removeItems,
  toggleDisabled,
  type EditorGraph,
  type XY,
} from './model/editor-graph';
import { record, redo, reset, startHistory, undo, type History } from './model/history';
import { defaultParamsOf } from './model/default-params';

export function useBuilder(initial: EditorGraph) {
  const [history, setHistory] = useState<History<EditorGraph>>(() => startHistory(initial));
  const [selection, setSelection] = useState<CanvasSelection>({ items: [], connections: [] });
  const graph = history.present;
  const graphRef = useRef(graph);
  graphRef.current = graph;

  const commit = useCallback((next: EditorGraph) => setHistory((current) => record(current, next)), []);
  const edit = useCallback((change: (graph: EditorGraph) => EditorGraph) => setHistory((current) => record(current, change(current.present))), []);

  const onSelectionChange = useCallback((next: CanvasSelection) => {
    setSelection((current) =>
      current.items.join() === next.items.join() && JSON.stringify(current.connections) === JSON.stringify(next.connections) ? current : next,
    );
  }, []);

  const selectedIds = useMemo(() => new Set(selection.items), [selection.items]);

  return {
    graph,
    history,
    selection,
    selectedIds,
    onSelectionChange,
    commit,
    edit,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    undo: () => setHistory(undo),
    redo: () => setHistory(redo),
    /** The server's copy replaces the editor's (conflict resolved by loading it). */
    load: (next: EditorGraph) => setHistory(reset(next)),
    addNodeOfType(type: NodeType, position: XY): string {
      let id = '';
      edit((current) => {
        const added = addNode(current, { type: type.type, version: type.version, label: type.label, params: defaultParamsOf(type.paramsSchema), position });
        id = added.id;
        return added.graph;
      });
      return id;
    },
    addNoteAt(position: XY) {
      edit((current) => addNote(current, position).graph);
    },
    removeSelected() {
      edit((current) => disconnect(removeItems(current, selectedIds), selection.connections));
    },
    toggleDisabledSelected() {
      edit((current) => toggleDisabled(current, selectedIds));
    },
    duplicateSelected() {
      edit((current) => duplicateSelection(current, selectedIds).graph);
    },
    copySelected(): string | null {
      return copySelection(graphRef.current, selectedIds);
    },
    /** Pastes clipboard text; false when it is not a copy of nodes. */
    paste(text: string, at?: XY): boolean {
      const content = readClipboard(text);
      if (!content) return false;
      edit((current) => pasteContent(current, content, at).graph);
      return true;
    },
    tidy() {
      edit((current) => moveItems(current, autoLayout(current)));
    },
  };
}

export type Builder = ReturnType<typeof useBuilder>;
