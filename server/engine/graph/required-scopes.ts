/**
 * The API-key scopes a graph implies (issue 18, item 4): a key's scopes only narrow its member's
 * rights (spec, Authentication 6 and 13), so a graph written or run through a key must not reach
 * what the key itself could not. Each node type declares what its use implies (`scopes`, and
 * `parameterScopes` for parameters in use); this module adds them up per scope, remembering which
 * node types asked, and lists the workflows the graph calls (`workflowParams`), whose own graphs
 * count too (server/domains/workflows/graph-scopes.ts reads them).
 *
 * Every node counts, disabled ones included: enabling a node is a graph save of its own, but a
 * graph is judged by what it names, not by a flag a later save flips. Pure: no database.
 */
import type { Scope } from '../../core/auth/scopes';
import type { NodeDefinition } from '../contract/define-node';
import { findNodeType } from '../nodes/registry';
import { isUuid } from '../../core/ids';

/** Scope → the node types (type names, in graph order) that need it. */
export type ScopeNeeds = Map<Scope, Set<string>>;

export interface GraphScopes {
  needs: ScopeNeeds;
  /** Literal workflow ids the graph calls (sub-workflow, loop), lower-cased, each once. */
  calledWorkflowIds: string[];
  /** True when a call's target is an expression: any of the member's workflows may be called. */
  callsAnyWorkflow: boolean;
}

interface NodeFacts {
  type: string;
  version: number;
  params: Record<string, unknown>;
}

/** The nodes of a graph, read defensively: a stored version is JSON that was valid when written. */
function nodesOf(graph: unknown): NodeFacts[] {
  const nodes = (graph as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return [];
  return nodes.flatMap((node) => {
    if (typeof node !== 'object' || node === null) return [];
    const { type, version, params } = node as Record<string, unknown>;
    if (typeof type !== 'string') return [];
    const record = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
    return [{ type, version: typeof version === 'number' ? version : 1, params: record }];
  });
}

type FieldSchema = { safeParse?: (value: unknown) => { success: boolean; data?: unknown } };
type SchemaParts = { shape?: Record<string, FieldSchema>; options?: unknown[]; in?: unknown };

/** A parameters schema's fields by name: an object's, each option's of a union (flow.wait), a pipe's input's. */
export function parameterFields(schema: unknown): Map<string, FieldSchema[]> {
  const fields = new Map<string, FieldSchema[]>();
  const visit = (part: unknown, depth: number) => {
    if (!part || typeof part !== 'object' || depth > 4) return;
    const { shape, options, in: input } = part as SchemaParts;
    if (shape) for (const [name, field] of Object.entries(shape)) fields.set(name, [...(fields.get(name) ?? []), field]);
    for (const option of options ?? []) visit(option, depth + 1);
    if (input) visit(input, depth + 1);
  };
  visit(schema, 0);
  return fields;
}

/** The schema's default for an absent parameter (undefined when it has none). */
function defaultOf(definition: NodeDefinition, name: string): unknown {
  for (const field of parameterFields(definition.params).get(name) ?? []) {
    const parsed = field.safeParse?.(undefined);
    if (parsed?.success && parsed.data !== undefined) return parsed.data;
  }
  return undefined;
}

/** A parameter is in use when set to something other than nothing: not null, false, blank or an empty list. */
export function parameterInUse(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function paramValue(definition: NodeDefinition, params: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(params, name) ? params[name] : defaultOf(definition, name);
}

/** The scopes one node of this type with these parameters implies. */
export function nodeScopes(definition: NodeDefinition, params: Record<string, unknown>): Scope[] {
  const scopes = new Set<Scope>(definition.scopes ?? []);
  for (const [name, implied] of Object.entries(definition.parameterScopes ?? {})) {
    if (parameterInUse(paramValue(definition, params, name))) for (const scope of implied) scopes.add(scope);
  }
  return [...scopes];
}

export function addNeed(needs: ScopeNeeds, scope: Scope, nodeType: string): void {
  const types = needs.get(scope) ?? new Set<string>();
  types.add(nodeType);
  needs.set(scope, types);
}

/** What a graph implies: its nodes' scopes and the workflows it calls. Unknown node types imply nothing (validation refuses them). */
export function graphScopes(graph: unknown): GraphScopes {
  const needs: ScopeNeeds = new Map();
  const called = new Set<string>();
  let callsAnyWorkflow = false;
  for (const node of nodesOf(graph)) {
    const definition = findNodeType(node.type, node.version);
    if (!definition) continue;
    for (const scope of nodeScopes(definition, node.params)) addNeed(needs, scope, node.type);
    for (const name of definition.workflowParams ?? []) {
      const target = paramValue(definition, node.params, name);
      if (typeof target === 'string' && isUuid(target.trim())) called.add(target.trim().toLowerCase());
      else if (parameterInUse(target)) callsAnyWorkflow = true;
    }
  }
  return { needs, calledWorkflowIds: [...called], callsAnyWorkflow };
}
