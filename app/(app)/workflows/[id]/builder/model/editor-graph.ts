/**
 * The graph the builder edits, and every edit as a pure function (graph in, graph out), so undo/redo
 * is a list of snapshots and each edit is unit-tested without a browser. The shape is the stored
 * graph's (spec, Workflow graph): what the builder saves is exactly what PUT …/graph validates.
 */
import type { GraphInput } from '@/server/engine/contract/graph';

export type StickyColor = 'jaune' | 'menthe' | 'ciel' | 'rose' | 'lavande';
export const stickyColors: readonly StickyColor[] = ['jaune', 'menthe', 'ciel', 'rose', 'lavande'];

export interface XY {
  x: number;
  y: number;
}

export interface EditorNode {
  id: string;
  type: string;
  version: number;
  name: string;
  params: Record<string, unknown>;
  onError?: 'fail' | 'continue' | 'errorPort';
  retry?: { maxAttempts: number; delayMs: number };
  timeoutMs?: number;
  position: XY;
  disabled?: boolean;
  notes?: string;
}

export interface EditorConnection {
  from: string;
  output: string;
  to: string;
  input?: string;
  kind?: 'data' | 'service';
}

export interface EditorNote {
  id: string;
  text: string;
  position: XY;
  size: { width: number; height: number };
  color: StickyColor;
}

export interface EditorPin {
  output: unknown;
  port?: string;
  pinnedAt: string;
}

export interface EditorGraph {
  nodes: EditorNode[];
  connections: EditorConnection[];
  notes: EditorNote[];
  pins: Record<string, EditorPin>;
}

export const emptyEditorGraph: EditorGraph = { nodes: [], connections: [], notes: [], pins: {} };

export const noteDefaults = { size: { width: 240, height: 160 }, color: 'jaune' as StickyColor };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The API's graph (already validated when stored) read into the editor's shape, defaults filled. */
export function editorGraphOf(stored: unknown): EditorGraph {
  if (!isRecord(stored)) return emptyEditorGraph;
  const nodes = (Array.isArray(stored.nodes) ? stored.nodes : []).filter(isRecord).map((node) => ({
    ...(node as unknown as EditorNode),
    params: isRecord(node.params) ? node.params : {},
    position: isRecord(node.position) ? (node.position as unknown as XY) : { x: 0, y: 0 },
  }));
  const connections = (Array.isArray(stored.connections) ? stored.connections : [])
    .filter(isRecord)
    .map((connection) => ({ ...(connection as unknown as EditorConnection), output: typeof connection.output === 'string' ? connection.output : 'main' }));
  const notes = (Array.isArray(stored.notes) ? stored.notes : []).filter(isRecord).map((note) => ({
    ...noteDefaults,
    ...(note as unknown as EditorNote),
    text: typeof note.text === 'string' ? note.text : '',
    position: isRecord(note.position) ? (note.position as unknown as XY) : { x: 0, y: 0 },
  }));
  const pins = isRecord(stored.pins) ? (stored.pins as Record<string, EditorPin>) : {};
  return { nodes, connections, notes, pins };
}

/** What PUT …/graph receives: empty notes and pins are left out so a graph without them stays without. */
export function storedGraphOf(graph: EditorGraph): GraphInput {
  return {
    nodes: graph.nodes,
    connections: graph.connections,
    ...(graph.notes.length > 0 && { notes: graph.notes }),
    ...(Object.keys(graph.pins).length > 0 && { pins: graph.pins }),
  };
}

/** A new id for a node of `type` (`if`, `if_2`…): readable in expressions (`nodes.if_2`), unique in the graph. */
export function freshNodeId(graph: EditorGraph, type: string, taken: Set<string> = new Set()): string {
  const base = (type.split('.').pop() ?? 'node').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 50) || 'node';
  const used = new Set([...graph.nodes.map((node) => node.id), ...taken]);
  if (!used.has(base)) return base;
  for (let index = 2; ; index += 1) {
    const candidate = `${base}_${index}`;
    if (!used.has(candidate)) return candidate;
  }
}

export function freshNoteId(graph: EditorGraph): string {
  const used = new Set(graph.notes.map((note) => note.id));
  for (let index = graph.notes.length + 1; ; index += 1) {
    if (!used.has(`note_${index}`)) return `note_${index}`;
  }
}

/** A unique display name: "If", "If 2"… */
export function freshNodeName(graph: EditorGraph, label: string, taken: Set<string> = new Set()): string {
  const used = new Set([...graph.nodes.map((node) => node.name), ...taken]);
  const base = label.slice(0, 190) || 'Node';
  if (!used.has(base)) return base;
  for (let index = 2; ; index += 1) {
    if (!used.has(`${base} ${index}`)) return `${base} ${index}`;
  }
}

export function addNode(graph: EditorGraph, node: Omit<EditorNode, 'id' | 'name'> & { label: string }): { graph: EditorGraph; id: string } {
  const { label, ...rest } = node;
  const id = freshNodeId(graph, node.type);
  return { graph: { ...graph, nodes: [...graph.nodes, { ...rest, id, name: freshNodeName(graph, label) }] }, id };
}

export function updateNode(graph: EditorGraph, id: string, patch: Partial<Omit<EditorNode, 'id'>>): EditorGraph {
  return { ...graph, nodes: graph.nodes.map((node) => (node.id === id ? dropUndefined({ ...node, ...patch }) : node)) };
}

/** Optional fields set back to "default" are removed rather than stored as undefined. */
function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

export function moveItems(graph: EditorGraph, positions: Map<string, XY>): EditorGraph {
  if (positions.size === 0) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((node) => (positions.has(node.id) ? { ...node, position: positions.get(node.id)! } : node)),
    notes: graph.notes.map((note) => (positions.has(note.id) ? { ...note, position: positions.get(note.id)! } : note)),
  };
}

export function sameConnection(a: EditorConnection, b: EditorConnection): boolean {
  return a.from === b.from && a.output === b.output && a.to === b.to && (a.input ?? 'main') === (b.input ?? 'main');
}

/** Connects an output port to an input; a duplicate or a self-loop is ignored (the engine refuses cycles). */
export function connect(graph: EditorGraph, connection: EditorConnection): EditorGraph {
  if (connection.from === connection.to) return graph;
  if (graph.connections.some((existing) => sameConnection(existing, connection))) return graph;
  const clean: EditorConnection = { from: connection.from, output: connection.output || 'main', to: connection.to };
  if (connection.input && connection.input !== 'main') clean.input = connection.input;
  if (connection.kind) clean.kind = connection.kind;
  return { ...graph, connections: [...graph.connections, clean] };
}

export function disconnect(graph: EditorGraph, connections: EditorConnection[]): EditorGraph {
  return { ...graph, connections: graph.connections.filter((existing) => !connections.some((gone) => sameConnection(existing, gone))) };
}

/** Removes nodes (with their connections and pins) and notes by id. */
export function removeItems(graph: EditorGraph, ids: Set<string>): EditorGraph {
  if (ids.size === 0) return graph;
  const pins = Object.fromEntries(Object.entries(graph.pins).filter(([nodeId]) => !ids.has(nodeId)));
  return {
    nodes: graph.nodes.filter((node) => !ids.has(node.id)),
    connections: graph.connections.filter((connection) => !ids.has(connection.from) && !ids.has(connection.to)),
    notes: graph.notes.filter((note) => !ids.has(note.id)),
    pins,
  };
}

/** Disables the selected nodes, or enables them all when every one is already disabled. */
export function toggleDisabled(graph: EditorGraph, ids: Set<string>): EditorGraph {
  const selected = graph.nodes.filter((node) => ids.has(node.id));
  if (selected.length === 0) return graph;
  const disable = !selected.every((node) => node.disabled === true);
  return { ...graph, nodes: graph.nodes.map((node) => (ids.has(node.id) ? { ...node, disabled: disable } : node)) };
}

export function addNote(graph: EditorGraph, position: XY, text = ''): { graph: EditorGraph; id: string } {
  const id = freshNoteId(graph);
  return { graph: { ...graph, notes: [...graph.notes, { id, text, position, ...noteDefaults }] }, id };
}

export function updateNote(graph: EditorGraph, id: string, patch: Partial<Omit<EditorNote, 'id'>>): EditorGraph {
  return { ...graph, notes: graph.notes.map((note) => (note.id === id ? { ...note, ...patch } : note)) };
}

export function pinOutput(graph: EditorGraph, nodeId: string, output: unknown, port: string | undefined, now: Date): EditorGraph {
  const pin: EditorPin = { output, pinnedAt: now.toISOString() };
  if (port && port !== 'main') pin.port = port;
  return { ...graph, pins: { ...graph.pins, [nodeId]: pin } };
}

export function unpin(graph: EditorGraph, nodeId: string): EditorGraph {
  if (!Object.hasOwn(graph.pins, nodeId)) return graph;
  return { ...graph, pins: Object.fromEntries(Object.entries(graph.pins).filter(([id]) => id !== nodeId)) };
}
