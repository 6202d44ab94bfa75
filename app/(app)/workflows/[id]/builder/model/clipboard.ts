/**
 * Copy and paste of nodes (between workflows too): the clipboard holds the graph's own JSON
 * (`{ "mailflow": "nodes", nodes, connections, notes }`), so it can also be pasted into a text editor
 * or written by hand. Pasting gives the nodes fresh ids and names where they collide, keeps the
 * connections among them and places the pasted group at `at` (or beside the originals).
 */
import { freshNodeId, freshNodeName, freshNoteId, type EditorConnection, type EditorGraph, type EditorNode, type EditorNote, type XY } from './editor-graph';

const marker = 'nodes';
const pasteOffset = 40;
/** A clipboard larger than a whole graph is not ours. */
const maxClipboardChars = 2_000_000;

export interface ClipboardContent {
  nodes: EditorNode[];
  connections: EditorConnection[];
  notes: EditorNote[];
}

export function copySelection(graph: EditorGraph, ids: Set<string>): string | null {
  const nodes = graph.nodes.filter((node) => ids.has(node.id));
  const notes = graph.notes.filter((note) => ids.has(note.id));
  if (nodes.length === 0 && notes.length === 0) return null;
  const connections = graph.connections.filter((connection) => ids.has(connection.from) && ids.has(connection.to));
  return JSON.stringify({ mailflow: marker, nodes, connections, notes }, null, 2);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNode(value: unknown): value is EditorNode {
  return isRecord(value) && typeof value.id === 'string' && typeof value.type === 'string' && typeof value.version === 'number' && typeof value.name === 'string';
}

function isNote(value: unknown): value is EditorNote {
  return isRecord(value) && typeof value.id === 'string' && isRecord(value.position);
}

/** Reads clipboard text; anything that is not our JSON (a sentence, another app's data) is null. */
export function readClipboard(text: string): ClipboardContent | null {
  if (text.length > maxClipboardChars) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || parsed.mailflow !== marker) return null;
  const nodes = (Array.isArray(parsed.nodes) ? parsed.nodes : []).filter(isNode);
  const notes = (Array.isArray(parsed.notes) ? parsed.notes : []).filter(isNote);
  const connections = (Array.isArray(parsed.connections) ? parsed.connections : []).filter(
    (connection): connection is EditorConnection => isRecord(connection) && typeof connection.from === 'string' && typeof connection.to === 'string',
  );
  if (nodes.length === 0 && notes.length === 0) return null;
  return { nodes, connections, notes };
}

function topLeft(content: ClipboardContent): XY {
  const points = [...content.nodes.map((node) => node.position), ...content.notes.map((note) => note.position)].filter(
    (point) => point && Number.isFinite(point.x) && Number.isFinite(point.y),
  );
  if (points.length === 0) return { x: 0, y: 0 };
  return { x: Math.min(...points.map((point) => point.x)), y: Math.min(...points.map((point) => point.y)) };
}

/** Pastes into `graph`; returns the new graph and the pasted items' ids (the new selection). */
export function pasteContent(graph: EditorGraph, content: ClipboardContent, at?: XY): { graph: EditorGraph; ids: string[] } {
  const origin = topLeft(content);
  const target = at ?? { x: origin.x + pasteOffset, y: origin.y + pasteOffset };
  const shift = (position: XY): XY => ({ x: (position?.x ?? 0) - origin.x + target.x, y: (position?.y ?? 0) - origin.y + target.y });
  const idMap = new Map<string, string>();
  const takenIds = new Set<string>();
  const takenNames = new Set<string>();
  const nodes = content.nodes.map((node) => {
    const id = graph.nodes.some((existing) => existing.id === node.id) || takenIds.has(node.id) ? freshNodeId(graph, node.type, takenIds) : node.id;
    const name = freshNodeName(graph, node.name, takenNames);
    takenIds.add(id);
    takenNames.add(name);
    idMap.set(node.id, id);
    return { ...node, id, name, position: shift(node.position) };
  });
  const connections = content.connections
    .filter((connection) => idMap.has(connection.from) && idMap.has(connection.to))
    .map((connection) => ({ ...connection, output: connection.output || 'main', from: idMap.get(connection.from)!, to: idMap.get(connection.to)! }));
  let withNotes: EditorGraph = { ...graph, nodes: [...graph.nodes, ...nodes], connections: [...graph.connections, ...connections] };
  const noteIds: string[] = [];
  for (const note of content.notes) {
    const id = freshNoteId(withNotes);
    noteIds.push(id);
    withNotes = { ...withNotes, notes: [...withNotes.notes, { ...note, id, position: shift(note.position) }] };
  }
  return { graph: withNotes, ids: [...nodes.map((node) => node.id), ...noteIds] };
}

/** Duplicate = copy + paste beside, without touching the system clipboard. */
export function duplicateSelection(graph: EditorGraph, ids: Set<string>): { graph: EditorGraph; ids: string[] } {
  const text = copySelection(graph, ids);
  const content = text ? readClipboard(text) : null;
  return content ? pasteContent(graph, content) : { graph, ids: [] };
}
