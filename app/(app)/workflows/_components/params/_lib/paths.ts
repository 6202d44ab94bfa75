/**
 * Paths of parameters and of the server's graph issues. The server writes them the way a client
 * wrote the graph (`nodes[2].params.conditions[0].left`, `nodes[0].params["odd key"]`, see
 * server/engine/nodes/check-params.ts); the forms address fields by segments (`['conditions', 0, 'left']`)
 * and match issues on the same text (`conditions[0].left`).
 */
import { formatPath } from '@/server/engine/nodes/check-params';

export type Segment = string | number;

export interface FieldIssue {
  path: string;
  message: string;
}

/** Segments as the server writes a path relative to the parameters: `conditions[0].left`. */
export function pathKey(segments: readonly Segment[]): string {
  return formatPath(segments);
}

/** `nodes[2].params.url` → ['nodes', 2, 'params', 'url'], or null when the text is not a path. */
export function parsePath(path: string): Segment[] | null {
  const segments: Segment[] = [];
  let at = 0;
  const text = path.trim();
  while (at < text.length) {
    const char = text[at];
    if (char === '.') {
      if (at === 0 || at === text.length - 1 || text[at + 1] === '.' || text[at + 1] === '[') return null;
      at += 1;
      continue;
    }
    if (char === '[') {
      const index = /^\[(\d+)\]/.exec(text.slice(at));
      if (index) {
        segments.push(Number(index[1]));
        at += index[0].length;
        continue;
      }
      const quoted = /^\["((?:[^"\\]|\\.)*)"\]/.exec(text.slice(at));
      if (!quoted) return null;
      try {
        segments.push(JSON.parse(`"${quoted[1]}"`) as string);
      } catch {
        return null;
      }
      at += quoted[0].length;
      continue;
    }
    const name = /^[^.[\]]+/.exec(text.slice(at));
    if (!name) return null;
    segments.push(/^\d+$/.test(name[0]) ? Number(name[0]) : name[0]);
    at += name[0].length;
  }
  return segments;
}

/** Where a graph issue belongs in the builder. */
export type IssueTarget =
  /** A parameter of node `nodeIndex` (`path` relative to its params; '' for the params as a whole). */
  | { nodeIndex: number; area: 'params'; path: string; segments: Segment[] }
  /** A node-level field (`name`, `retry.maxAttempts`, `timeoutMs`, `notes`…), or '' for the node itself. */
  | { nodeIndex: number; area: 'node'; path: string; segments: Segment[] };

/**
 * Maps an issue path of a graph (`nodes[2].params.conditions[0].left`; a request's own validation may
 * write `nodes.2.params`) to its node and field; null for anything else (connections, notes, pins).
 */
export function graphIssueTarget(path: string): IssueTarget | null {
  const segments = parsePath(path);
  if (!segments || segments[0] !== 'nodes' || typeof segments[1] !== 'number') return null;
  const nodeIndex = segments[1];
  const rest = segments.slice(2);
  if (rest[0] === 'params') {
    const inner = rest.slice(1);
    return { nodeIndex, area: 'params', path: pathKey(inner), segments: inner };
  }
  return { nodeIndex, area: 'node', path: nodeFieldKey(rest), segments: rest };
}

function nodeFieldKey(segments: Segment[]): string {
  return segments.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
}

/** The issues of one node, split between its parameters form and its settings form (paths relative to each). */
export function issuesForNode(issues: readonly FieldIssue[], nodeIndex: number): { params: FieldIssue[]; node: FieldIssue[] } {
  const params: FieldIssue[] = [];
  const node: FieldIssue[] = [];
  for (const issue of issues) {
    const target = graphIssueTarget(issue.path);
    if (!target || target.nodeIndex !== nodeIndex) continue;
    (target.area === 'params' ? params : node).push({ path: target.path, message: issue.message });
  }
  return { params, node };
}

/**
 * An issue path given to the params form, normalised relative to the params: accepts `conditions[0].left`,
 * `params.conditions[0].left` and `nodes[2].params.conditions[0].left`.
 */
export function normaliseParamIssuePath(path: string): string | null {
  const target = graphIssueTarget(path);
  if (target) return target.area === 'params' ? target.path : null;
  const segments = parsePath(path);
  if (segments === null) return path === '' ? '' : null;
  return pathKey(segments[0] === 'params' ? segments.slice(1) : segments);
}

/** Whether `path` is `ancestor` itself or lies under it. */
export function isUnder(path: string, ancestor: string): boolean {
  if (ancestor === '') return true;
  return path === ancestor || path.startsWith(`${ancestor}.`) || path.startsWith(`${ancestor}[`);
}
