/**
 * The node types of this instance (the palette and the UI's parameter forms): each type's newest
 * version with its texts in one language (its parameters' help included), ports, effect kind,
 * effective retry defaults, the API-key scopes its use implies and the JSON Schema of its
 * parameters. Computed once per language.
 */
import { z } from 'zod';
import { normaliseScopes } from '../../core/auth/scopes';
import { forbiddenNodeTypesFor, latestNodeTypes, localizeParamsSchema } from '../../engine';
import type { NodeDefinition } from '../../engine/contract/define-node';
import { builtInRetry } from '../../engine/contract/limits';
import type { ListNodeTypesQuery, NodeTypeOutput } from './schemas';

const cache = new Map<string, Omit<NodeTypeOutput, 'forbidden'>[]>();

function present(definition: NodeDefinition, lang: 'en' | 'fr'): Omit<NodeTypeOutput, 'forbidden'> {
  return {
    type: definition.type,
    version: definition.version,
    category: definition.category,
    label: definition.label[lang],
    description: definition.description[lang],
    inputs: definition.trigger ? [] : [...(definition.inputs ?? ['main'])],
    outputs: typeof definition.outputs === 'function' ? null : [...definition.outputs],
    effect: definition.effect,
    retry: { ...builtInRetry, ...definition.retry },
    trigger: definition.trigger ?? null,
    mailboxParams: [...(definition.mailboxParams ?? [])],
    scopes: normaliseScopes(definition.scopes ?? []),
    parameterScopes: Object.entries(definition.parameterScopes ?? {}).map(([parameter, scopes]) => ({ parameter, scopes: normaliseScopes(scopes) })),
    workflowParams: [...(definition.workflowParams ?? [])],
    paramsSchema: localizeParamsSchema(z.toJSONSchema(definition.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>, lang),
    outputSchema: definition.output ? (z.toJSONSchema(definition.output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>) : null,
  };
}

/** `role`: the caller's, for `forbidden` (FORBIDDEN_NODE_TYPES applies to members only). */
export function listNodeTypes(query: ListNodeTypesQuery, role: 'member' | 'admin' = 'member'): { nodeTypes: NodeTypeOutput[] } {
  const lang = query.lang ?? 'en';
  let items = cache.get(lang);
  if (!items) {
    items = latestNodeTypes().map((definition) => present(definition, lang));
    cache.set(lang, items);
  }
  const forbidden = forbiddenNodeTypesFor(role);
  return { nodeTypes: items.map((item) => ({ ...item, forbidden: forbidden.has(item.type) })) };
}
