/** A zod issue as error details show it: `{path: "a.0.b", code, message}` (one shape for every 400). */
export function simplifyIssue(issue: unknown): { path: string; code: string | undefined; message: string | undefined } {
  const { path, code, message } = issue as { path?: unknown[]; code?: string; message?: string };
  return { path: (path ?? []).map(String).join('.'), code, message };
}
