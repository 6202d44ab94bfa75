/**
 * The facts of a graph snapshot that dispatch, removal-impact and disarming read without parsing
 * graphs: the trigger (its kind and node) and the mailboxes the graph touches. A mail trigger's
 * `mailboxIds` parameter names the mailboxes it watches (empty: every mailbox of the member); every
 * parameter a node type lists in `mailboxParams` names a mailbox the graph acts on or sends from.
 * Values that are expressions are known only at run time and are not counted.
 */
import type { NodeDefinition, TriggerKind } from '../contract/define-node';
import { findNodeType } from '../nodes/registry';
import type { GraphNode } from '../contract/graph';
import { isUuid } from '../../core/ids';

export interface TriggerFacts {
  triggerType: TriggerKind | null;
  triggerNodeId: string | null;
  triggerMailboxIds: string[];
  usedMailboxIds: string[];
}

function mailboxIdsIn(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string' && isUuid(item)).map((id) => id.toLowerCase());
}

function paramOf(node: Pick<GraphNode, 'params'>, name: string): unknown {
  return node.params && Object.hasOwn(node.params, name) ? node.params[name] : undefined;
}

/** The trigger nodes of a graph with their definitions (a valid graph has at most one). */
export function triggerNodesOf(
  nodes: readonly Pick<GraphNode, 'id' | 'type' | 'version' | 'params'>[],
  find: (type: string, version: number) => NodeDefinition | undefined = findNodeType,
) {
  return nodes.flatMap((node) => {
    const definition = find(node.type, node.version);
    return definition?.trigger ? [{ node, definition, kind: definition.trigger }] : [];
  });
}

export function triggerFactsOf(
  graph: { nodes: readonly Pick<GraphNode, 'id' | 'type' | 'version' | 'params'>[] },
  find: (type: string, version: number) => NodeDefinition | undefined = findNodeType,
): TriggerFacts {
  const [trigger] = triggerNodesOf(graph.nodes, find);
  const used = new Set<string>();
  for (const node of graph.nodes) {
    const definition = find(node.type, node.version);
    for (const name of definition?.mailboxParams ?? []) for (const id of mailboxIdsIn(paramOf(node, name))) used.add(id);
  }
  return {
    triggerType: trigger?.kind ?? null,
    triggerNodeId: trigger?.node.id ?? null,
    triggerMailboxIds: trigger?.kind === 'mail' ? [...new Set(mailboxIdsIn(paramOf(trigger.node, 'mailboxIds')))] : [],
    usedMailboxIds: [...used],
  };
}
