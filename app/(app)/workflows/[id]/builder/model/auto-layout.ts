/**
 * Auto-layout of a messy graph with dagre (layered, left to right, the way runs flow). Sticky notes
 * keep their place; only nodes move. Each node is laid out with the room its labels need: the output
 * labels drawn to its right (a switch's case names) push the next column further, and a node with
 * many outputs is given the height its stacked labels need, so "Tidy up" never hides a label under
 * an edge or the next node.
 */
import dagre from '@dagrejs/dagre';
import type { EditorGraph, EditorNode, XY } from './editor-graph';

export const nodeBox = { width: 208, height: 72 } as const;

/** Room for what a node may show under its name (a run's status, badges) and for each output label. */
const layoutHeight = 96;
const outputLabelPitch = 22;
/** The labels' text is 10 px: an upper bound of a character's width, plus the handle and padding. */
const labelCharWidth = 6.5;
const labelPadding = 24;

export interface LayoutOptions {
  /** The labels a node draws beside its outputs (none for a single unnamed output). */
  outputLabels?: (node: EditorNode) => readonly string[];
}

function labelRoom(labels: readonly string[]): number {
  const longest = Math.max(0, ...labels.map((label) => label.length));
  return longest === 0 ? 0 : Math.ceil(longest * labelCharWidth + labelPadding);
}

export function autoLayout(graph: EditorGraph, options: LayoutOptions = {}): Map<string, XY> {
  const layout = new dagre.graphlib.Graph();
  layout.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 80, marginx: 0, marginy: 0 });
  layout.setDefaultEdgeLabel(() => ({}));
  const boxes = new Map<string, { width: number; height: number }>();
  for (const node of graph.nodes) {
    const labels = options.outputLabels?.(node) ?? [];
    const box = { width: nodeBox.width + labelRoom(labels), height: Math.max(layoutHeight, labels.length * outputLabelPitch + 16) };
    boxes.set(node.id, box);
    layout.setNode(node.id, box);
  }
  for (const connection of graph.connections) {
    if (layout.hasNode(connection.from) && layout.hasNode(connection.to)) layout.setEdge(connection.from, connection.to);
  }
  dagre.layout(layout);
  const positions = new Map<string, XY>();
  for (const node of graph.nodes) {
    const placed = layout.node(node.id);
    const box = boxes.get(node.id)!;
    // dagre gives centres of the whole box (node and its labels' room to the right); the canvas
    // places nodes by their top-left corner.
    if (placed) positions.set(node.id, { x: Math.round(placed.x - box.width / 2), y: Math.round(placed.y - box.height / 2) });
  }
  return positions;
}

/** The minimum height a node needs for its outputs' labels not to overlap (the canvas's node uses it). */
export function nodeMinHeight(outputCount: number): number {
  return Math.max(nodeBox.height - 12, outputCount * outputLabelPitch);
}
