/**
 * A stored workflow graph (as the API returns it, read defensively) → what the read-only canvas
 * draws: nodes at their `position`, edges from the connections, each node with its step status.
 * Graphs written by hand often leave every node at (0, 0): when positions collide, the nodes are laid
 * out in columns by their distance from the trigger instead.
 */
export interface CanvasNode {
  id: string;
  name: string;
  type: string;
  position: { x: number; y: number };
  disabled: boolean;
  status: string | null;
}

export interface CanvasEdge {
  id: string;
  source: string;
  target: string;
  /** The output port when it is not the default `main` (if's `true`/`false`, `error`…). */
  label: string | null;
}

export interface CanvasModel {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

export const layoutSpacing = { x: 260, y: 120 } as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function readNodes(graph: Record<string, unknown>, statusByNode: Record<string, string>): CanvasNode[] {
  const seen = new Set<string>();
  const nodes: CanvasNode[] = [];
  for (const raw of Array.isArray(graph.nodes) ? graph.nodes : []) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || seen.has(raw.id)) continue;
    seen.add(raw.id);
    const position = isRecord(raw.position) ? raw.position : {};
    nodes.push({
      id: raw.id,
      name: typeof raw.name === 'string' && raw.name ? raw.name : raw.id,
      type: typeof raw.type === 'string' ? raw.type : '',
      position: { x: finite(position.x), y: finite(position.y) },
      disabled: raw.disabled === true,
      status: Object.hasOwn(statusByNode, raw.id) ? statusByNode[raw.id] : null,
    });
  }
  return nodes;
}

function readEdges(graph: Record<string, unknown>, ids: Set<string>): CanvasEdge[] {
  const edges: CanvasEdge[] = [];
  (Array.isArray(graph.connections) ? graph.connections : []).forEach((raw, index) => {
    if (!isRecord(raw) || typeof raw.from !== 'string' || typeof raw.to !== 'string') return;
    if (!ids.has(raw.from) || !ids.has(raw.to)) return;
    const output = typeof raw.output === 'string' && raw.output ? raw.output : 'main';
    edges.push({ id: `${raw.from}:${output}->${raw.to}#${index}`, source: raw.from, target: raw.to, label: output === 'main' ? null : output });
  });
  return edges;
}

function positionsCollide(nodes: CanvasNode[]): boolean {
  const taken = new Set<string>();
  for (const node of nodes) {
    const key = `${node.position.x},${node.position.y}`;
    if (taken.has(key)) return true;
    taken.add(key);
  }
  return false;
}

/** Columns by longest distance from a node without inputs (cycles cut), rows in graph order. */
export function layeredPositions(nodes: CanvasNode[], edges: CanvasEdge[]): Map<string, { x: number; y: number }> {
  const incoming = new Map<string, number>(nodes.map((node) => [node.id, 0]));
  const outgoing = new Map<string, string[]>(nodes.map((node) => [node.id, []]));
  for (const edge of edges) {
    if (edge.source === edge.target) continue;
    incoming.set(edge.target, (incoming.get(edge.target) ?? 0) + 1);
    outgoing.get(edge.source)?.push(edge.target);
  }
  const depth = new Map<string, number>();
  const roots = nodes.filter((node) => incoming.get(node.id) === 0).map((node) => node.id);
  // Longest path with a bound: a cycle (loops) cannot push a node further than the node count.
  const queue = (roots.length > 0 ? roots : nodes.slice(0, 1).map((node) => node.id)).map((id) => ({ id, level: 0 }));
  for (const entry of queue) depth.set(entry.id, 0);
  while (queue.length > 0) {
    const { id, level } = queue.shift()!;
    for (const next of outgoing.get(id) ?? []) {
      const candidate = level + 1;
      if (candidate < nodes.length && candidate > (depth.get(next) ?? -1)) {
        depth.set(next, candidate);
        queue.push({ id: next, level: candidate });
      }
    }
  }
  const rows = new Map<number, number>();
  const positions = new Map<string, { x: number; y: number }>();
  for (const node of nodes) {
    const column = depth.get(node.id) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    positions.set(node.id, { x: column * layoutSpacing.x, y: row * layoutSpacing.y });
  }
  return positions;
}

export function canvasModel(graph: unknown, statusByNode: Record<string, string> = {}): CanvasModel {
  if (!isRecord(graph)) return { nodes: [], edges: [] };
  const nodes = readNodes(graph, statusByNode);
  const edges = readEdges(graph, new Set(nodes.map((node) => node.id)));
  if (!positionsCollide(nodes)) return { nodes, edges };
  const positions = layeredPositions(nodes, edges);
  return { nodes: nodes.map((node) => ({ ...node, position: positions.get(node.id) ?? node.position })), edges };
}
