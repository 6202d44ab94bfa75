/**
 * Save-time check of one node's parameters (the graph validator calls it): the definition's zod
 * schema, except that an expression string (`{{ … }}`) is accepted wherever a value goes (its value
 * is only known at run time, then the executor's schema checks it), and every expression must
 * compile. Issues are `{path, message, rule}` with paths like `params.url`, `params.fields[0].value`,
 * and messages that are sentences naming the field ("Fill in “Url”.", readable-issue.ts).
 */
import type { NodeDefinition } from '../contract/define-node';
import { compileError, expressionPieces, hasExpression } from '../expressions';
import { readableIssue, type IssueRule } from './readable-issue';

export interface ParamIssue {
  path: string;
  /** A sentence naming the field in words (readable-issue.ts). */
  message: string;
  /** The rule broken, for a client to word it in its language. */
  rule?: IssueRule;
}

const maxDepth = 64;

function pathText(segments: readonly PropertyKey[]): string {
  let text = 'params';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) text += `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/** A path relative to the parameters (`url`, `[0]`, `["odd key"]`), for callers that prefix their own. */
export function formatPath(segments: readonly PropertyKey[]): string {
  return pathText(segments).slice('params'.length).replace(/^\./, '');
}

/** Whether the value at `segments` in `params`, or any value on the way there, is an expression string. */
function leadsToExpression(params: unknown, segments: readonly PropertyKey[]): boolean {
  let current: unknown = params;
  for (let index = 0; index <= segments.length; index += 1) {
    if (hasExpression(current)) return true;
    if (index === segments.length) return false;
    const segment = segments[index];
    if (current === null || typeof current !== 'object') return false;
    const key = typeof segment === 'number' ? segment : String(segment);
    if (!Object.hasOwn(current, key)) return false;
    current = (current as Record<string | number, unknown>)[key];
  }
  return false;
}

/** Whether `params` holds a value (not undefined) at `segments`. */
function holdsValue(params: unknown, segments: readonly PropertyKey[]): boolean {
  let current: unknown = params;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return false;
    const key = typeof segment === 'number' ? segment : String(segment);
    if (!Object.hasOwn(current, key)) return false;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current !== undefined;
}

function checkExpressions(value: unknown, segments: PropertyKey[], issues: ParamIssue[], depth: number): void {
  if (typeof value === 'string') {
    for (const piece of expressionPieces(value)) {
      const problem = compileError(piece.source);
      if (problem) issues.push({ path: pathText(segments), message: `The expression does not compile: ${problem}`, rule: { kind: 'expression' } });
    }
    return;
  }
  if (value === null || typeof value !== 'object' || depth > maxDepth) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkExpressions(item, [...segments, index], issues, depth + 1));
    return;
  }
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(value, key)) checkExpressions((value as Record<string, unknown>)[key], [...segments, key], issues, depth + 1);
  }
}

export function checkNodeParams(definition: Pick<NodeDefinition, 'params'>, params: unknown): ParamIssue[] {
  const issues: ParamIssue[] = [];
  const parsed = definition.params.safeParse(params ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (leadsToExpression(params, issue.path)) continue;
      // A union issue may hide branches that fail only because a value is an expression.
      issues.push({ path: pathText(issue.path), ...readableIssue(issue, holdsValue(params, issue.path)) });
    }
  }
  checkExpressions(params, [], issues, 0);
  return issues;
}
