/**
 * A step's parameters as its executor receives them: expressions resolved over the run's data
 * (server/engine/expressions: JSONata with time and size budgets, `expression_error` naming the path,
 * evaluated on the sandbox's worker threads so a runaway never holds the runner's event loop),
 * then checked against the node type's schema (a mismatch is a permanent `invalid_parameter` naming
 * the path); and as the step keeps them (`input`: secrets masked).
 */
import type { ExpressionScope } from '../expressions';
import { resolveParamsInSandbox } from '../expressions/sandbox';
import type { NodeDefinition } from '../contract/define-node';
import { fail } from '../contract/failures';

export type { ExpressionScope };

export async function resolveStepParams(definition: NodeDefinition, params: Record<string, unknown>, scope: ExpressionScope): Promise<{ value: unknown; masked: Record<string, unknown> }> {
  const resolved = await resolveParamsInSandbox(params, scope);
  const parsed = definition.params.safeParse(resolved.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['params', ...issue.path.map(String)].join('.');
    throw fail.permanent('invalid_parameter', { message: `${path}: ${issue.message}`, details: { path } });
  }
  const masked = resolved.masked && typeof resolved.masked === 'object' && !Array.isArray(resolved.masked) ? (resolved.masked as Record<string, unknown>) : {};
  return { value: parsed.data, masked };
}
