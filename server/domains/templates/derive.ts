/**
 * What a template shows about its graph, derived on every write (never taken from input): the node
 * types it uses (`type@version`, sorted, each once) and what it needs to run: `mail` when a mail
 * trigger, a mail node or a signal node is present (a mailbox of any provider), `http` for the HTTP request node:
 * each node type says it (`requires` on its definition, server/engine/contract/define-node.ts).
 */
import { nodeRequirementsOf } from '../../engine';

export interface TemplateFacts {
  nodeTypes: string[];
  requiresProviders: string[];
}

export function templateFactsOf<Node extends { type: string; version: number }>(graph: { nodes?: readonly Node[] }): TemplateFacts {
  const nodes = graph.nodes ?? [];
  const nodeTypes = [...new Set(nodes.map((node) => `${node.type}@${node.version}`))].sort();
  const providers = new Set<string>();
  for (const node of nodes) {
    for (const requirement of nodeRequirementsOf(node.type, node.version)) providers.add(requirement);
  }
  return { nodeTypes, requiresProviders: [...providers].sort() };
}
