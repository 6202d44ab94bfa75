/**
 * What a template shows about its graph, derived on every write (never taken from input): the node
 * types it uses (`type@version`, sorted, each once) and what it needs to run: `mail` when a mail
 * trigger, a mail node or a signal node is present (a mailbox of any provider), `http` for the HTTP request node.
 */
export interface TemplateFacts {
  nodeTypes: string[];
  requiresProviders: string[];
}

const isMailType = (type: string) => type === 'trigger.mail' || type.startsWith('mail.') || type.startsWith('signal.');

export function templateFactsOf<Node extends { type: string; version: number }>(graph: { nodes?: readonly Node[] }): TemplateFacts {
  const nodes = graph.nodes ?? [];
  const nodeTypes = [...new Set(nodes.map((node) => `${node.type}@${node.version}`))].sort();
  const providers = new Set<string>();
  for (const node of nodes) {
    if (isMailType(node.type)) providers.add('mail');
    if (node.type === 'http.request') providers.add('http');
  }
  return { nodeTypes, requiresProviders: [...providers].sort() };
}
