/**
 * What a template's graph needs, derived (never typed by hand): its node types as `type@version`
 * (sorted, unique) and the providers it requires: `mail` when a node reads or acts on mail (the mail
 * trigger, any mail or signal node), `http` for the HTTP request node. Pure.
 */
import type { GraphInput } from '../../../engine/graph/schema';

export interface DerivedFacts {
  nodeTypes: string[];
  requiresProviders: string[];
}

const mailTypes = (type: string) => type === 'trigger.mail' || type.startsWith('mail.') || type.startsWith('signal.');

export function deriveTemplateFacts(graph: Pick<GraphInput, 'nodes'>): DerivedFacts {
  const nodes = graph.nodes ?? [];
  const nodeTypes = [...new Set(nodes.map((node) => `${node.type}@${node.version}`))].sort();
  const providers = new Set<string>();
  for (const node of nodes) {
    if (mailTypes(node.type)) providers.add('mail');
    if (node.type === 'http.request') providers.add('http');
  }
  return { nodeTypes, requiresProviders: [...providers].sort() };
}
