/**
 * The graph JSON a member types, and the server's answers about it: `workflow.invalid_graph` (and a
 * request's own validation errors) carry `details.issues` [{path, message}], shown at their paths.
 */
import { appErrorOf } from '@/app/lib/errors';

/** The rule a parameter broke (server/engine/nodes/readable-issue.ts), for saying it in the member's language. */
export type IssueRule = { kind: string } & Record<string, unknown>;

export interface GraphIssue {
  path: string;
  message: string;
  rule?: IssueRule;
  /** `warning`: shown, never blocks saving, publishing or a test run (an unknown field path). Default `error`. */
  severity?: 'error' | 'warning';
}

function pathText(path: unknown): string {
  if (typeof path === 'string') return path;
  if (Array.isArray(path)) return path.map((part) => (typeof part === 'number' ? `[${part}]` : String(part))).join('.').replace(/\.\[/g, '[');
  return '';
}

/** The issues of a refused graph, or [] for any other error. */
export function graphIssuesOf(error: unknown): GraphIssue[] {
  const info = appErrorOf(error);
  if (!info || (info.code !== 'workflow.invalid_graph' && info.code !== 'request.bad_request')) return [];
  const issues = Array.isArray(info.details.issues) ? info.details.issues : [];
  return issues
    .filter((issue): issue is Record<string, unknown> => typeof issue === 'object' && issue !== null)
    .map((issue) => ({ path: pathText(issue.path), message: typeof issue.message === 'string' ? issue.message : '' }))
    .slice(0, 100);
}

/** The issues a save or a read answered with the draft (`issues`, `draftIssues`): [] when absent. */
export function draftIssuesOf(value: unknown): GraphIssue[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((issue): issue is Record<string, unknown> => typeof issue === 'object' && issue !== null && typeof issue.path === 'string')
    .map((issue) => ({
      path: issue.path as string,
      message: typeof issue.message === 'string' ? issue.message : '',
      ...(typeof issue.rule === 'object' && issue.rule !== null && typeof (issue.rule as IssueRule).kind === 'string' ? { rule: issue.rule as IssueRule } : {}),
    }))
    .slice(0, 100);
}

export type ParsedGraph = { ok: true; graph: Record<string, unknown> | undefined } | { ok: false; reason: 'not_json' | 'not_object'; detail?: string };

/** The textarea's content: empty is "no graph", otherwise a JSON object. */
export function parseGraphText(text: string): ParsedGraph {
  if (!text.trim()) return { ok: true, graph: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: 'not_json', detail: error instanceof Error ? error.message : undefined };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not_object' };
  return { ok: true, graph: value as Record<string, unknown> };
}

/** The graph as the editor shows it: without the server's own ids, two-space JSON. */
export function graphText(graph: unknown): string {
  if (typeof graph !== 'object' || graph === null) return '';
  const { id: _id, workflowId: _workflowId, ...rest } = graph as Record<string, unknown>;
  return JSON.stringify(rest, null, 2);
}
