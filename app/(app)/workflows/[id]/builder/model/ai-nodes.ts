/**
 * Whether a graph (as the API serves it: nodes of unknown shape) has an enabled AI step (`ai.*`): only
 * then may a test run be asked to call the models for real.
 */
export function hasAiNodes(graph: { nodes: readonly unknown[] } | null | undefined): boolean {
  return Boolean(
    graph?.nodes.some((node) => {
      if (!node || typeof node !== 'object') return false;
      const { type, disabled } = node as { type?: unknown; disabled?: unknown };
      return typeof type === 'string' && type.startsWith('ai.') && disabled !== true;
    }),
  );
}
