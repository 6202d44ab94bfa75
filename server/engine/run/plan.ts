/**
 * Which nodes of a graph run next, from the steps so far: pure, so every routing rule is a table test.
 *
 * A node runs when every connection into it is decided (its source finished or was skipped) and at
 * least one is active (its source succeeded and took that output port). A node none of whose
 * connections is active is skipped, and so, in turn, are the nodes only it leads to. The trigger
 * node runs first. In a test run up to a node (`runUntil`), nodes that do not lead to it are skipped.
 */

export type StepStatus = 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'skipped';

export interface PlanGraph {
  nodes: readonly { id: string }[];
  connections: readonly { from: string; output: string; to: string }[];
  triggerNodeId: string | null;
  runUntil?: string | null;
}

export interface PlanStep {
  status: StepStatus;
  /** The output port the step took (null for a skipped or failed step). */
  output: string | null;
}

export interface Plan {
  /** Nodes to run now, in graph order. */
  ready: string[];
  /** Nodes to record as skipped. */
  skip: string[];
  /** Steps not final yet (queued, running, waiting). */
  pending: string[];
  /** Nothing to run, nothing pending: the execution is over. */
  finished: boolean;
}

const finalStatuses = new Set<StepStatus>(['succeeded', 'failed', 'skipped']);

function ancestorsOf(target: string, connections: PlanGraph['connections']): Set<string> {
  const into = new Map<string, string[]>();
  for (const connection of connections) into.set(connection.to, [...(into.get(connection.to) ?? []), connection.from]);
  const seen = new Set<string>([target]);
  const queue = [target];
  while (queue.length > 0) {
    for (const source of into.get(queue.pop()!) ?? []) {
      if (!seen.has(source)) {
        seen.add(source);
        queue.push(source);
      }
    }
  }
  return seen;
}

export function planExecution(graph: PlanGraph, steps: ReadonlyMap<string, PlanStep>): Plan {
  const known = new Map(steps);
  const ready: string[] = [];
  const skip: string[] = [];
  const inScope = graph.runUntil ? ancestorsOf(graph.runUntil, graph.connections) : null;
  const incoming = new Map<string, PlanGraph['connections'][number][]>();
  for (const connection of graph.connections) incoming.set(connection.to, [...(incoming.get(connection.to) ?? []), connection]);

  // Skips make further nodes decidable: repeat until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const node of graph.nodes) {
      if (known.has(node.id) || ready.includes(node.id)) continue;
      const decision = decide(node.id);
      if (decision === 'run') ready.push(node.id);
      if (decision === 'skip') {
        skip.push(node.id);
        known.set(node.id, { status: 'skipped', output: null });
        changed = true;
      }
    }
  }

  function decide(nodeId: string): 'run' | 'skip' | 'wait' {
    if (inScope && !inScope.has(nodeId)) return 'skip';
    if (nodeId === graph.triggerNodeId) return 'run';
    const edges = incoming.get(nodeId) ?? [];
    if (edges.length === 0) return 'skip';
    let active = false;
    for (const edge of edges) {
      const source = known.get(edge.from);
      if (!source || !finalStatuses.has(source.status)) return 'wait';
      if (source.status === 'succeeded' && source.output === edge.output) active = true;
    }
    return active ? 'run' : 'skip';
  }

  const pending = [...steps.entries()].filter(([, step]) => !finalStatuses.has(step.status)).map(([id]) => id);
  return { ready, skip, pending, finished: ready.length === 0 && pending.length === 0 };
}
