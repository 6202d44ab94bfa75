'use client';

/**
 * The builder's editing state: the graph with its undo history, the canvas selection, and the edits
 * the toolbar, the palette, the inspector and the shortcuts share. Every edit is one undo step (typing
 * in one field, one step for the burst).
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { NodeType } from './api';
import type { CanvasSelection } from './canvas/builder-canvas';
import { autoLayout, type LayoutOptions } from './model/auto-layout';
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

  /** Records an edit; with a merge key (the field edited), a burst of keystrokes in it is one undo step. */
  const commit = useCallback((next: EditorGraph, mergeKey?: string) => setHistory((current) => record(current, next, mergeKey ? { key: mergeKey, at: Date.now() } : undefined)), []);
  const edit = useCallback((change: (graph: EditorGraph) => EditorGraph) => setHistory((current) => record(current, change(current.present))), []);

  const onSelectionChange = useCallback((next: CanvasSelection) => {
    setSelection((current) =>
      current.items.join() === next.items.join() && JSON.stringify(current.connections) === JSON.stringify(next.connections) ? current : next,
    );
  }, []);

  const selectedIds = useMemo(() => new Set(selection.items), [selection.items]);

  /** The items an edit just created (a duplicate, a paste, a new node or note): the canvas selects them. */
  const [selectRequest, setSelectRequest] = useState<{ ids: string[] } | null>(null);
  // An edit that creates items runs on the graph as rendered, so that their ids are known here.
  const create = useCallback((change: (graph: EditorGraph) => { graph: EditorGraph; ids: string[] }): string[] => {
    const base = graphRef.current;
    const result = change(base);
    if (result.ids.length === 0) return [];
    setHistory((current) => record(current, current.present === base ? result.graph : change(current.present).graph));
    setSelectRequest({ ids: result.ids });
    return result.ids;
  }, []);

  return {
    graph,
    history,
    selection,
    selectedIds,
    selectRequest,
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
      const [id] = create((current) => {
        const added = addNode(current, { type: type.type, version: type.version, label: type.label, params: defaultParamsOf(type.paramsSchema), position });
        return { graph: added.graph, ids: [added.id] };
      });
      return id ?? '';
    },
    addNoteAt(position: XY) {
      create((current) => {
        const added = addNote(current, position);
        return { graph: added.graph, ids: [added.id] };
      });
    },
    removeSelected() {
      edit((current) => disconnect(removeItems(current, selectedIds), selection.connections));
    },
    toggleDisabledSelected() {
      edit((current) => toggleDisabled(current, selectedIds));
    },
    duplicateSelected() {
      create((current) => duplicateSelection(current, selectedIds));
    },
    copySelected(): string | null {
      return copySelection(graphRef.current, selectedIds);
    },
    /** Pastes clipboard text; false when it is not a copy of nodes. */
    paste(text: string, at?: XY): boolean {
      const content = readClipboard(text);
      if (!content) return false;
      create((current) => pasteContent(current, content, at));
      return true;
    },
    /** Lays the nodes out; `options.outputLabels` gives the room each node's output labels need. */
    tidy(options?: LayoutOptions) {
      edit((current) => moveItems(current, autoLayout(current, options)));
    },
  };
}

export type Builder = ReturnType<typeof useBuilder>;
