/**
 * The server's graph issues (`nodes[2].params.url`, `connections[0].to`, `notes[1].id`) placed on
 * the items of the graph that was sent: the canvas frames them, the inspector shows the message at
 * the field (`path` relative to the node: `params.url`).
 */
import type { GraphIssue } from '../../../_lib/graph-issues';
import type { EditorGraph } from './editor-graph';

export interface PlacedIssue {
  /** Relative to the item (`params.conditions[0].left`), empty for the item itself. */
  path: string;
  message: string;
}

export interface IssuesByItem {
  nodes: Map<string, PlacedIssue[]>;
  /** By connection index in the graph. */
  connections: Map<number, PlacedIssue[]>;
  notes: Map<string, PlacedIssue[]>;
  /** Issues that name no item (the graph as a whole, an unknown index). */
  graph: PlacedIssue[];
}

const itemPath = /^(nodes|connections|notes)\[(\d+)\](?:\.(.*))?$/;

function push<K>(map: Map<K, PlacedIssue[]>, key: K, issue: PlacedIssue) {
  map.set(key, [...(map.get(key) ?? []), issue]);
}

export function placeIssues(graph: EditorGraph, issues: GraphIssue[]): IssuesByItem {
  const placed: IssuesByItem = { nodes: new Map(), connections: new Map(), notes: new Map(), graph: [] };
  for (const issue of issues) {
    const match = itemPath.exec(issue.path);
    const index = match ? Number(match[2]) : -1;
    const relative = { path: match?.[3] ?? '', message: issue.message };
    if (match?.[1] === 'nodes' && graph.nodes[index]) push(placed.nodes, graph.nodes[index].id, relative);
    else if (match?.[1] === 'connections' && graph.connections[index]) push(placed.connections, index, relative);
    else if (match?.[1] === 'notes' && graph.notes[index]) push(placed.notes, graph.notes[index].id, relative);
    else if (issue.path.startsWith('pins.')) push(placed.nodes, issue.path.slice(5), { path: 'pin', message: issue.message });
    else placed.graph.push({ path: issue.path, message: issue.message });
  }
  return placed;
}
