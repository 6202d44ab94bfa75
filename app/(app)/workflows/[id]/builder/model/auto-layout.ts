/**
 * Auto-layout of a messy graph with dagre (layered, left to right, the way runs flow). Sticky notes
 * keep their place; only nodes move.
 */
import dagre from '@dagrejs/dagre';
import type { EditorGraph, XY } from './editor-graph';

export const nodeBox = { width: 208, height: 72 } as const;

export function autoLayout(graph: EditorGraph): Map<string, XY> {
  const layout = new dagre.graphlib.Graph();
  layout.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 80, marginx: 0, marginy: 0 });
  layout.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) layout.setNode(node.id, { width: nodeBox.width, height: nodeBox.height });
  for (const connection of graph.connections) {
    if (layout.hasNode(connection.from) && layout.hasNode(connection.to)) layout.setEdge(connection.from, connection.to);
  }
  dagre.layout(layout);
  const positions = new Map<string, XY>();
  for (const node of graph.nodes) {
    const placed = layout.node(node.id);
    // dagre gives centres; the canvas places nodes by their top-left corner.
    if (placed) positions.set(node.id, { x: Math.round(placed.x - nodeBox.width / 2), y: Math.round(placed.y - nodeBox.height / 2) });
  }
  return positions;
}
