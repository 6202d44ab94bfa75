/**
 * Server-only: a step's parameters resolved the way `resolveParams` resolves them, with the
 * expressions evaluated in the sandbox (`pool.ts`) against the part of the scope they can read
 * (`scope-needs.ts`). Parameters without `{{` never reach it.
 */
import { expressionSites, maskSecrets, withResolvedSites, type ExpressionScope } from '..';
import { evaluateSitesInSandbox } from './pool';
import { scopeNeededBy } from './scope-needs';

export { closeExpressionSandbox, expressionSandboxStats, startExpressionSandbox } from './pool';

/**
 * Resolves every expression in `params` (deeply) against the scope. `value`: the params to run with;
 * `masked`: the same with secrets masked, for the step's stored `input`.
 */
export async function resolveParamsInSandbox(params: unknown, scope: ExpressionScope): Promise<{ value: unknown; masked: unknown }> {
  const sites = expressionSites(params);
  // Only what the expressions can read is copied to the thread (upstream nodes' data can be large).
  const resolved = sites.length === 0 ? [] : await evaluateSitesInSandbox(sites, scopeNeededBy(sites, scope));
  const value = withResolvedSites(params, resolved);
  return { value, masked: maskSecrets(value) };
}
