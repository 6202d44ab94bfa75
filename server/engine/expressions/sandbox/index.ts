/**
 * Server-only: a step's parameters resolved the way `resolveParams` resolves them, with the
 * expressions evaluated in the sandbox (`pool.ts`) against the part of the scope they can read
 * (`scope-needs.ts`). Parameters without `{{` never reach it, and neither do steps whose expressions
 * are all plain field paths, arithmetic and comparisons (no call, loop or recursion: their cost is
 * linear in the bounded data they read), which are resolved on this thread with the same bounds.
 */
import { expressionSites, maskSecrets, plainData, resolveText, withResolvedSites, type ExpressionScope, type ExpressionSite } from '..';
import { evaluateSitesInSandbox } from './pool';
import { runsInline, scopeNeededBy } from './scope-needs';

export { closeExpressionSandbox, expressionSandboxStats, startExpressionSandbox } from './pool';

async function resolveInline(sites: ExpressionSite[], scope: unknown): Promise<unknown[]> {
  const plainScope = plainData(scope);
  const resolved: unknown[] = [];
  for (const site of sites) resolved.push(await resolveText(site.text, plainScope, site.path));
  return resolved;
}

/** Whether every expression of `text` is of the inline kind (bounded by the data it reads; see runsInline). */
export function isInlineText(text: string, path = 'params'): boolean {
  return runsInline([{ path, text }]);
}

/**
 * One string resolved on this thread, for the few places that must answer without a sandbox thread
 * (a run's "one run at a time" key, computed as it starts): refuses anything but inline expressions.
 */
export async function resolveInlineText(text: string, scope: unknown, path: string): Promise<unknown> {
  if (!isInlineText(text, path)) throw new Error(`${path}: only inline expressions are resolved on this thread`);
  const [value] = await resolveInline([{ path, text }], scope);
  return value;
}

async function resolveSites(sites: ExpressionSite[], scope: ExpressionScope): Promise<unknown[]> {
  if (sites.length === 0) return [];
  // Only what the expressions can read is copied (upstream nodes' data can be large).
  const needed = scopeNeededBy(sites, scope);
  return runsInline(sites) ? resolveInline(sites, needed) : evaluateSitesInSandbox(sites, needed);
}

/**
 * Resolves every expression in `params` (deeply) against the scope. `value`: the params to run with;
 * `masked`: the same with secrets masked, for the step's stored `input`.
 */
export async function resolveParamsInSandbox(params: unknown, scope: ExpressionScope): Promise<{ value: unknown; masked: unknown }> {
  const sites = expressionSites(params);
  const value = withResolvedSites(params, await resolveSites(sites, scope));
  return { value, masked: maskSecrets(value) };
}
