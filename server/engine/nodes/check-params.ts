/**
 * Checks a node's parameters against its type's schema while admitting expressions: a string holding
 * `{{ … }}` stands for a value known only at run time, so an issue pointing at such a string is not
 * an issue. (Minimal version kept by the workflows domain until the expression helper lands; same
 * path and export.)
 */
import type { NodeDefinition } from './define-node';

export interface ParamIssue {
  /** Inside `params`: `url`, `headers[0].name`; empty for the parameters object itself. */
  path: string;
  message: string;
}

export function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.includes('{{');
}

export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/** The value at `path` inside `root`, reading own properties only (a key named `__proto__` is data). */
function valueAt(root: unknown, path: readonly PropertyKey[]): { found: boolean; value?: unknown } {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return { found: false };
    const key = typeof segment === 'number' ? String(segment) : (segment as string);
    if (!Object.hasOwn(current, key)) return { found: false };
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, value: current };
}

export function checkNodeParams(definition: NodeDefinition, params: unknown): ParamIssue[] {
  const result = definition.params.safeParse(params);
  if (result.success) return [];
  return result.error.issues
    .filter((issue) => {
      const at = valueAt(params, issue.path);
      return !(at.found && isExpression(at.value));
    })
    .map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}
