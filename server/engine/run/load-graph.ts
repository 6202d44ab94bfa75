/**
 * The graph an execution runs, read from its immutable version row. Versions never change, so a
 * small in-process cache saves re-reading and re-parsing the same graph for every advance.
 */
import { db } from '../../core/db';
import { graphInput, type GraphNode, type WorkflowGraph } from '../contract/graph';

export interface RunnableGraph {
  graph: WorkflowGraph;
  nodes: Map<string, GraphNode>;
  triggerNodeId: string | null;
  /** A test run up to a node. */
  runUntil: string | null;
}

const cache = new Map<string, RunnableGraph>();
const cacheSize = 500;

export async function loadGraph(versionId: string, triggerNodeId: string | null): Promise<RunnableGraph | null> {
  const cached = cache.get(versionId);
  if (cached) return cached;
  const version = await db().workflowVersion.findUnique({ where: { id: versionId }, select: { graph: true, workflowId: true, triggerNodeId: true } });
  if (!version) return null;
  const raw = (version.graph ?? {}) as Record<string, unknown>;
  const parsed = graphInput.safeParse({ nodes: raw.nodes ?? [], connections: raw.connections ?? [], notes: raw.notes, pins: raw.pins });
  if (!parsed.success) return null;
  const graph: WorkflowGraph = { ...parsed.data, id: versionId, workflowId: version.workflowId };
  const runnable: RunnableGraph = {
    graph,
    nodes: new Map(graph.nodes.map((node) => [node.id, node])),
    triggerNodeId: triggerNodeId ?? version.triggerNodeId,
    runUntil: typeof raw.runUntil === 'string' ? raw.runUntil : null,
  };
  if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
  cache.set(versionId, runnable);
  return runnable;
}
