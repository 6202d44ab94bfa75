/**
 * What the graph's shape (schema.ts) cannot check: node types and versions known to the instance,
 * unique node and sticky-note ids, connections between existing nodes, ports and inputs, at most one
 * trigger, cycles only through nodes that allow them (a loop's back edge), and every node's
 * parameters against its type's schema (expressions admitted). Each issue names the offending path
 * the way a client wrote it: `nodes[2].params.url`, `connections[0].to`.
 */
import type { NodeDefinition } from '../contract/define-node';
import { outputsOf } from '../contract/define-node';
import { checkNodeParams, formatPath } from '../nodes/check-params';
import { findNodeType, nodeDefinitions } from '../nodes/registry';
import type { IssueRule } from '../nodes/readable-issue';
import type { GraphConnection, GraphNode } from '../contract/graph';

export interface GraphIssue {
  path: string;
  message: string;
  /** For a parameter issue: the rule broken (readable-issue.ts), for a client to word in its language. */
  rule?: IssueRule;
  /**
   * The graph cannot even be kept as a draft: unknown node types or versions, duplicate ids,
   * connections or pins naming no node. Other issues (an incomplete node, a port that is gone, two
   * triggers, a cycle) are the draft's to fix: it saves with them and only publishing and test runs
   * refuse it.
   */
  structural?: true;
}

/** The node types a graph is checked against (the registry; tests hand their own). */
export interface NodeCatalogue {
  find(type: string, version: number): NodeDefinition | undefined;
  hasType(type: string): boolean;
}

export const registryCatalogue: NodeCatalogue = {
  find: findNodeType,
  hasType: (type) => nodeDefinitions.some((definition) => definition.type === type),
};

export interface CheckableGraph {
  nodes: readonly GraphNode[];
  connections: readonly GraphConnection[];
  notes?: readonly { id: string }[];
  pins?: Record<string, unknown>;
}

export function validateGraph(graph: CheckableGraph, catalogue: NodeCatalogue = registryCatalogue): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const nodes = new Map<string, { index: number; node: GraphNode; definition: NodeDefinition | undefined }>();
  let triggers = 0;

  graph.nodes.forEach((node, index) => {
    const at = `nodes[${index}]`;
    if (nodes.has(node.id)) issues.push({ path: `${at}.id`, message: `Duplicate node id "${node.id}".`, structural: true });
    const definition = catalogue.find(node.type, node.version);
    if (!nodes.has(node.id)) nodes.set(node.id, { index, node, definition });
    if (!definition) {
      if (catalogue.hasType(node.type)) issues.push({ path: `${at}.version`, message: `Node type "${node.type}" has no version ${node.version}.`, structural: true });
      else issues.push({ path: `${at}.type`, message: `Unknown node type "${node.type}".`, structural: true });
      return;
    }
    if (definition.trigger && ++triggers > 1) issues.push({ path: at, message: 'A workflow has at most one trigger node.' });
    for (const issue of checkNodeParams(definition, node.params)) {
      issues.push({ ...issue, path: `${at}.${issue.path}` });
    }
  });

  const noteIds = new Set<string>();
  (graph.notes ?? []).forEach((note, index) => {
    if (noteIds.has(note.id)) issues.push({ path: `notes[${index}].id`, message: `Duplicate sticky note id "${note.id}".`, structural: true });
    noteIds.add(note.id);
  });

  for (const nodeId of Object.keys(graph.pins ?? {})) {
    if (!nodes.has(nodeId)) issues.push({ path: joinPath('pins', formatPath([nodeId])), message: `No node "${nodeId}" to pin data on.`, structural: true });
  }

  const edges: { from: string; to: string; index: number }[] = [];
  graph.connections.forEach((connection, index) => {
    const at = `connections[${index}]`;
    const source = nodes.get(connection.from);
    const target = nodes.get(connection.to);
    if (!source) issues.push({ path: `${at}.from`, message: `No node "${connection.from}".`, structural: true });
    if (!target) issues.push({ path: `${at}.to`, message: `No node "${connection.to}".`, structural: true });
    if (source?.definition) {
      const ports = portsOf(source.definition, source.node.params);
      if (ports && !ports.includes(connection.output)) {
        issues.push({ path: `${at}.output`, message: `Node "${connection.from}" has no output "${connection.output}".` });
      }
    }
    if (target?.definition) {
      const inputs = target.definition.inputs ?? ['main'];
      if (connection.input !== undefined && !inputs.includes(connection.input)) {
        issues.push({ path: `${at}.input`, message: `Node "${connection.to}" has no input "${connection.input}".` });
      }
    }
    if (source && target) edges.push({ from: connection.from, to: connection.to, index });
  });

  const cycle = findForbiddenCycle(nodes, edges);
  if (cycle) {
    issues.push({
      path: `connections[${cycle.index}]`,
      message: `This connection closes a cycle (${cycle.path.join(' → ')}); only a node that allows cycles (a loop) may be part of one.`,
    });
  }
  return issues;
}

function joinPath(prefix: string, relative: string): string {
  if (!relative) return prefix;
  return relative.startsWith('[') ? `${prefix}${relative}` : `${prefix}.${relative}`;
}

/** The output ports, or null when they cannot be known from the parameters (an expression). */
function portsOf(definition: NodeDefinition, params: unknown): string[] | null {
  try {
    return outputsOf(definition, params);
  } catch {
    return null;
  }
}

/**
 * Every cycle must pass a node that allows cycles: equivalently, the graph without those nodes has no
 * cycle. Depth-first search over the rest; the first back edge found is reported.
 */
function findForbiddenCycle(
  nodes: Map<string, { definition: NodeDefinition | undefined }>,
  edges: { from: string; to: string; index: number }[],
): { index: number; path: string[] } | null {
  const allows = (id: string) => nodes.get(id)?.definition?.allowsCycles === true;
  const next = new Map<string, { to: string; index: number }[]>();
  for (const edge of edges) {
    if (allows(edge.from) || allows(edge.to)) continue;
    const list = next.get(edge.from) ?? [];
    list.push(edge);
    next.set(edge.from, list);
  }
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  for (const start of nodes.keys()) {
    if (state.has(start)) continue;
    // Iterative DFS: a graph of 200 nodes is small, but recursion depth is not ours to choose.
    const frames: { id: string; position: number }[] = [{ id: start, position: 0 }];
    state.set(start, 'open');
    stack.push(start);
    while (frames.length) {
      const frame = frames[frames.length - 1];
      const outgoing = next.get(frame.id) ?? [];
      if (frame.position >= outgoing.length) {
        state.set(frame.id, 'done');
        stack.pop();
        frames.pop();
        continue;
      }
      const edge = outgoing[frame.position++];
      const seen = state.get(edge.to);
      if (seen === 'open') return { index: edge.index, path: [...stack.slice(stack.indexOf(edge.to)), edge.to] };
      if (!seen) {
        state.set(edge.to, 'open');
        stack.push(edge.to);
        frames.push({ id: edge.to, position: 0 });
      }
    }
  }
  return null;
}
