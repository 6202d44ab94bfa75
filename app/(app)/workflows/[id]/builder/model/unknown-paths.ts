/**
 * Issue 19 §6: a path that matches nothing known gets a warning at save. Every `{{ … }}` of every
 * node's parameters is read for the scope paths it uses (`trigger.from.email`, `input.total`,
 * `nodes.lookup.row`); each is checked against what is known of that part of the scope: the node
 * types' declared output shapes (a mail trigger's fields, without a run), the last test run's data
 * and pinned data. Only a sure miss warns (a key the data or a closed shape does not have, a node id
 * the graph does not have); free data or nothing known says nothing. A warning never blocks saving,
 * publishing or a test run. Pure.
 */
import { expressionPieces } from '@/server/engine/expressions';
import { pathStatus, scopePathsIn, type JsonSchemaLike, type KnownPart } from '../../../_components/expression/_lib/known-fields';
import type { GraphIssue } from '../../../_lib/graph-issues';
import type { EditorGraph } from './editor-graph';

export interface KnownSources {
  /** Output shapes by node type (`outputSchema` of GET /api/v1/node-types). */
  outputSchemaOf: (type: string) => JsonSchemaLike | null | undefined;
  /** The last test run: its trigger data and each step's data. */
  run: { triggerData?: unknown; steps: readonly { nodeId: string; data: unknown }[] } | null;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

function leafPath(segments: readonly (string | number)[]): string {
  let text = 'params';
  for (const segment of segments) text += typeof segment === 'number' ? `[${segment}]` : identifier.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  return text;
}

/** Every string of the parameters with its path. */
function stringLeaves(value: unknown, segments: (string | number)[] = [], out: { path: string; text: string }[] = [], depth = 0): { path: string; text: string }[] {
  if (depth > 32) return out;
  if (typeof value === 'string') out.push({ path: leafPath(segments), text: value });
  else if (Array.isArray(value)) value.forEach((item, index) => stringLeaves(item, [...segments, index], out, depth + 1));
  else if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) stringLeaves(inner, [...segments, key], out, depth + 1);
  return out;
}

function pathText(keys: readonly string[]): string {
  return keys.map((key, index) => (index === 0 || identifier.test(key) ? key : `\`${key}\``)).join('.');
}

/** The warnings of a graph: one per unknown path, at the parameter that uses it. */
export function unknownPathWarnings(graph: EditorGraph, sources: KnownSources, sentence: (path: string) => string): GraphIssue[] {
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const stepData = new Map<string, unknown>();
  for (const step of sources.run?.steps ?? []) if (step.data !== null && step.data !== undefined) stepData.set(step.nodeId, step.data);
  const trigger = graph.nodes.find((node) => node.type.startsWith('trigger.'));

  const partOf = (nodeId: string): KnownPart | null => {
    const node = byId.get(nodeId);
    if (!node) return null;
    const value = Object.hasOwn(graph.pins, nodeId) ? graph.pins[nodeId].output : stepData.get(nodeId);
    const schema = sources.outputSchemaOf(node.type) ?? undefined;
    return value === undefined && !schema ? null : { ...(value === undefined ? {} : { value }), ...(schema ? { schema } : {}) };
  };
  const triggerPart = (): KnownPart | null => {
    const value = sources.run?.triggerData;
    const fromNode = trigger ? partOf(trigger.id) : null;
    if (value === undefined || value === null) return fromNode;
    return { value, schema: fromNode?.schema };
  };

  const warnings: GraphIssue[] = [];
  graph.nodes.forEach((node, index) => {
    const upstream = graph.connections.find((connection) => connection.to === node.id && (connection.input ?? 'main') === 'main');
    for (const leaf of stringLeaves(node.params)) {
      for (const piece of expressionPieces(leaf.text)) {
        for (const keys of scopePathsIn(piece.source)) {
          let status: 'known' | 'unknown' | 'unsure' = 'unsure';
          if (keys[0] === 'trigger') {
            const part = triggerPart();
            if (part) status = pathStatus(part, keys.slice(1));
          } else if (keys[0] === 'input') {
            const part = upstream ? partOf(upstream.from) : null;
            if (part) status = pathStatus(part, keys.slice(1));
          } else if (keys[0] === 'nodes' && keys[1] !== undefined) {
            if (!byId.has(keys[1])) status = 'unknown';
            else {
              const part = partOf(keys[1]);
              if (part) status = pathStatus(part, keys.slice(2));
            }
          }
          if (status === 'unknown') warnings.push({ path: `nodes[${index}].${leaf.path}`, message: sentence(pathText(keys)), severity: 'warning' });
        }
      }
    }
  });
  return warnings;
}
