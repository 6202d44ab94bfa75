import { describe, expect, it } from 'vitest';
import { autoLayout } from './auto-layout';
import { copySelection, duplicateSelection, pasteContent, readClipboard } from './clipboard';
import {
  addNode,
  addNote,
  connect,
  editorGraphOf,
  emptyEditorGraph,
  moveItems,
  pinOutput,
  removeItems,
  storedGraphOf,
  toggleDisabled,
  unpin,
  updateNode,
  type EditorGraph,
} from './editor-graph';
import { mergeKeyOf, mergeWindowMs, record, redo, startHistory, undo } from './history';

function chain(): EditorGraph {
  let graph = emptyEditorGraph;
  graph = addNode(graph, { type: 'trigger.mail', version: 1, label: 'Mail', params: {}, position: { x: 0, y: 0 } }).graph;
  graph = addNode(graph, { type: 'logic.if', version: 1, label: 'If', params: {}, position: { x: 0, y: 0 } }).graph;
  graph = addNode(graph, { type: 'mail.draft', version: 1, label: 'Draft', params: {}, position: { x: 0, y: 0 } }).graph;
  graph = connect(graph, { from: 'mail', output: 'main', to: 'if' });
  return connect(graph, { from: 'if', output: 'true', to: 'draft' });
}

describe('editing the graph', () => {
  it('gives new nodes readable unique ids and names', () => {
    let graph = chain();
    const second = addNode(graph, { type: 'logic.if', version: 1, label: 'If', params: {}, position: { x: 5, y: 5 } });
    graph = second.graph;
    expect(second.id).toBe('if_2');
    expect(graph.nodes.find((node) => node.id === 'if_2')?.name).toBe('If 2');
  });

  it('ignores duplicate connections and self-loops', () => {
    const graph = chain();
    expect(connect(graph, { from: 'mail', output: 'main', to: 'if' }).connections).toHaveLength(2);
    expect(connect(graph, { from: 'if', output: 'main', to: 'if' }).connections).toHaveLength(2);
  });

  it('removes a node with its connections and its pin', () => {
    const graph = pinOutput(chain(), 'if', { a: 1 }, 'true', new Date('2026-01-01T00:00:00Z'));
    const after = removeItems(graph, new Set(['if']));
    expect(after.nodes.map((node) => node.id)).toEqual(['mail', 'draft']);
    expect(after.connections).toEqual([]);
    expect(after.pins).toEqual({});
  });

  it('toggles disabled: disables a mixed selection, enables when all are disabled', () => {
    const once = toggleDisabled(chain(), new Set(['if', 'draft']));
    expect(once.nodes.filter((node) => node.disabled).map((node) => node.id)).toEqual(['if', 'draft']);
    const twice = toggleDisabled(once, new Set(['if', 'draft']));
    expect(twice.nodes.some((node) => node.disabled)).toBe(false);
  });

  it('drops optional settings set back to their default instead of storing undefined', () => {
    const withRetry = updateNode(chain(), 'if', { retry: { maxAttempts: 2, delayMs: 5000 } });
    const cleared = updateNode(withRetry, 'if', { retry: undefined });
    expect(Object.keys(cleared.nodes[1])).not.toContain('retry');
  });

  it('moves nodes and notes', () => {
    const { graph, id } = addNote(chain(), { x: 0, y: 0 }, 'hello');
    const moved = moveItems(graph, new Map([[id, { x: 10, y: 20 }], ['if', { x: 300, y: 0 }]]));
    expect(moved.notes[0].position).toEqual({ x: 10, y: 20 });
    expect(moved.nodes[1].position).toEqual({ x: 300, y: 0 });
  });

  it('stores pins with their port and unpins', () => {
    const pinned = pinOutput(chain(), 'if', { ok: true }, 'true', new Date('2026-01-01T00:00:00Z'));
    expect(pinned.pins.if).toEqual({ output: { ok: true }, port: 'true', pinnedAt: '2026-01-01T00:00:00.000Z' });
    expect(unpin(pinned, 'if').pins).toEqual({});
  });

  it('round-trips the stored shape, leaving out empty notes and pins', () => {
    const stored = storedGraphOf(chain());
    expect(Object.keys(stored)).toEqual(['nodes', 'connections']);
    expect(editorGraphOf(stored)).toEqual(chain());
  });

  it('reads a hostile stored graph defensively', () => {
    expect(editorGraphOf(null)).toEqual(emptyEditorGraph);
    expect(editorGraphOf({ nodes: 'x', connections: [1, null], pins: [] })).toEqual(emptyEditorGraph);
  });
});

describe('copy, paste and duplicate', () => {
  it('copies the selection with the connections among it only', () => {
    const text = copySelection(chain(), new Set(['if', 'draft']))!;
    const content = readClipboard(text)!;
    expect(content.nodes.map((node) => node.id)).toEqual(['if', 'draft']);
    expect(content.connections).toEqual([{ from: 'if', output: 'true', to: 'draft' }]);
  });

  it('pastes into another workflow keeping ids that are free there', () => {
    const content = readClipboard(copySelection(chain(), new Set(['if', 'draft']))!)!;
    const { graph, ids } = pasteContent(emptyEditorGraph, content, { x: 100, y: 100 });
    expect(ids).toEqual(['if', 'draft']);
    expect(graph.connections).toEqual([{ from: 'if', output: 'true', to: 'draft' }]);
    expect(graph.nodes[0].position).toEqual({ x: 100, y: 100 });
  });

  it('duplicates with fresh ids and names, connections rewired to the copies', () => {
    const { graph, ids } = duplicateSelection(chain(), new Set(['if', 'draft']));
    expect(ids).toEqual(['if_2', 'draft_2']);
    expect(graph.nodes.map((node) => node.name)).toEqual(['Mail', 'If', 'Draft', 'If 2', 'Draft 2']);
    expect(graph.connections).toContainEqual({ from: 'if_2', output: 'true', to: 'draft_2' });
  });

  it('refuses clipboard text that is not ours', () => {
    expect(readClipboard('hello')).toBeNull();
    expect(readClipboard('{"nodes":[]}')).toBeNull();
    expect(readClipboard('{"mailflow":"nodes","nodes":[{"__proto__":{"polluted":1}}]}')).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('undo and redo', () => {
  it('walks back and forth, and a new edit drops the redo branch', () => {
    let history = startHistory(1);
    history = record(history, 2);
    history = record(history, 3);
    history = undo(undo(history));
    expect(history.present).toBe(1);
    history = redo(history);
    expect(history.present).toBe(2);
    history = record(history, 9);
    expect(redo(history).present).toBe(9);
    expect(undo(history).present).toBe(2);
  });

  it('a burst of typing in one field is one step; another field, a pause or an undo starts a new one', () => {
    let history = startHistory('');
    history = record(history, 'I', { key: 'settings:n1:name', at: 1_000 });
    history = record(history, 'In', { key: 'settings:n1:name', at: 1_300 });
    history = record(history, 'Inv', { key: 'settings:n1:name', at: 2_200 });
    expect(history.past).toEqual(['']);
    expect(undo(history).present).toBe('');
    // Another field of the node: its own step.
    history = record(history, 'Inv!', { key: 'settings:n1:notes', at: 2_300 });
    expect(history.past).toEqual(['', 'Inv']);
    // A pause longer than the window: a new step, even in the same field.
    history = record(history, 'Inv!!', { key: 'settings:n1:notes', at: 2_300 + mergeWindowMs });
    expect(history.past).toEqual(['', 'Inv', 'Inv!']);
    // After an undo, typing again does not fold into the undone step.
    history = undo(history);
    history = record(history, 'Inv!?', { key: 'settings:n1:notes', at: 3_400 });
    expect(history.past).toEqual(['', 'Inv', 'Inv!']);
    expect(history.future).toEqual([]);
  });

  it('names an edit by its item and the top-level fields it changed', () => {
    expect(mergeKeyOf('params:n1', { subject: 'a', labels: [1] }, { subject: 'ab', labels: [1] })).toBe('params:n1:subject');
    expect(mergeKeyOf('params:n1', { subject: 'a' }, { subject: 'a', body: 'x' })).toBe('params:n1:body');
    expect(mergeKeyOf('settings:n1', { name: 'A', disabled: false }, { name: 'A', disabled: true })).toBe('settings:n1:disabled');
  });
});

describe('auto-layout', () => {
  it('lays a chain out left to right without overlaps', () => {
    const positions = autoLayout(chain());
    const xs = ['mail', 'if', 'draft'].map((id) => positions.get(id)!.x);
    expect(xs[0]).toBeLessThan(xs[1]);
    expect(xs[1]).toBeLessThan(xs[2]);
  });
});
