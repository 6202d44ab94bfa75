/**
 * Node types the instance forbids to members (config `FORBIDDEN_NODE_TYPES`, type names such as
 * `http.request`); administrators are exempt. A member's graph naming one is refused like any other
 * invalid graph (an issue at the node's `type`), a template using one cannot be installed by a
 * member (409 `templates.forbidden_node`), and a step of one fails when it runs
 * (`node_type_forbidden`, ../run/allowed-node-types.ts).
 */
import { config } from '../../core/config';
import type { GraphIssue } from './validate-graph';

/** The node type names forbidden to a caller of this role (none for an administrator). */
export function forbiddenNodeTypesFor(role: 'member' | 'admin'): ReadonlySet<string> {
  return role === 'admin' ? new Set() : new Set(config().FORBIDDEN_NODE_TYPES);
}

/** The forbidden type names a graph uses, sorted, each once. */
export function forbiddenTypesIn(graph: { nodes: readonly { type: string }[] }, forbidden: ReadonlySet<string>): string[] {
  if (forbidden.size === 0) return [];
  return [...new Set(graph.nodes.map((node) => node.type).filter((type) => forbidden.has(type)))].sort();
}

/** One issue per node of a forbidden type, at the node's `type` path. */
export function forbiddenNodeIssues(graph: { nodes: readonly { type: string }[] }, forbidden: ReadonlySet<string>): GraphIssue[] {
  if (forbidden.size === 0) return [];
  return graph.nodes.flatMap((node, index) =>
    forbidden.has(node.type) ? [{ path: `nodes[${index}].type`, message: `Node type "${node.type}" is not allowed on this instance.`, structural: true as const }] : [],
  );
}
