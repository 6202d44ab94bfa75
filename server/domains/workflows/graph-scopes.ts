/**
 * Scopes follow into workflows (issue 18, item 4): a graph saved, published, test-run, restored,
 * installed, evaluated or replayed through an API key needs every scope its nodes imply
 * (engine/graph/required-scopes.ts), else 403 `api_key.scope_missing`. Sessions are not narrowed.
 *
 * A sub-workflow or loop runs another workflow's published version with data the caller chooses and
 * hands its output back, so the called workflows' scopes count too, transitively: a literal target's
 * published graph (and what it calls); a target given by an expression could be any of the member's
 * published workflows, so all of them. What this cannot see: a workflow published (by a session, or a
 * key that holds its scopes) after the caller's check; that is the member's own later decision.
 */
import { authorizeScopeNeeds, type AuthenticatedActor, type ScopeNeed } from '../../core/auth/access';
import type { Scope } from '../../core/auth/scopes';
import type { Tx } from '../../core/db';
import { graphScopes } from '../../engine';
import type { ScopeNeeds } from '../../engine';
import { publishedGraphs } from './repo';

type Reader = Pick<Tx, 'workflow' | 'workflowVersion'>;

function needsOf(needs: ScopeNeeds, workflowId?: string): ScopeNeed[] {
  return [...needs].map(([scope, nodeTypes]) => ({ scope, nodeTypes: [...nodeTypes], ...(workflowId ? { workflowIds: [workflowId] } : {}) }));
}

/** Every scope a graph needs, with what asks for it: its own nodes, then the workflows it may call. */
export async function graphScopeNeeds(memberId: string, graph: unknown, tx: Reader): Promise<ScopeNeed[]> {
  const own = graphScopes(graph);
  const needs = needsOf(own.needs);
  const visited = new Set<string>();
  let pending = own.calledWorkflowIds;
  let callsAny = own.callsAnyWorkflow;
  while (!callsAny && pending.length > 0) {
    for (const id of pending) visited.add(id);
    const next = new Set<string>();
    for (const called of await publishedGraphs(memberId, pending, tx)) {
      const scopes = graphScopes(called.graph);
      needs.push(...needsOf(scopes.needs, called.workflowId));
      callsAny ||= scopes.callsAnyWorkflow;
      for (const id of scopes.calledWorkflowIds) if (!visited.has(id)) next.add(id);
    }
    pending = [...next];
  }
  if (callsAny) {
    for (const called of await publishedGraphs(memberId, null, tx)) needs.push(...needsOf(graphScopes(called.graph).needs, called.workflowId));
  }
  return needs;
}

/**
 * For a key: 403 `api_key.scope_missing` unless it holds every scope the graph (and what it calls)
 * needs, plus `extra` (a test message read, a draft written on the assistant's behalf, …).
 * Sessions return at once, without reading anything.
 */
export async function assertGraphScopes(actor: AuthenticatedActor, graph: unknown, tx: Reader, extra: readonly ScopeNeed[] = []): Promise<void> {
  return assertGraphsScopes(actor, [graph], tx, extra);
}

/** The same for several graphs run together (an evaluation: the evaluated version and its baseline), judged as one. */
export async function assertGraphsScopes(actor: AuthenticatedActor, graphs: readonly unknown[], tx: Reader, extra: readonly ScopeNeed[] = []): Promise<void> {
  if (actor.kind !== 'apiKey') return;
  const needs: ScopeNeed[] = [];
  for (const graph of graphs) needs.push(...(await graphScopeNeeds(actor.member.id, graph, tx)));
  authorizeScopeNeeds(actor, [...needs, ...extra]);
}

/** A need that no node asks for: `reason` names what does. */
export const needFor = (scope: Scope, reason: string): ScopeNeed => ({ scope, reasons: [reason] });

/** The rule as the write routes' descriptions state it (OpenAPI, en and fr). */
export const graphScopeRule = {
  en: 'Through an API key, the key must also hold every scope the graph’s node types imply (`scopes` and `parameterScopes` in GET /api/v1/node-types; a sub-workflow or loop adds the scopes of the workflows it calls), else 403 `api_key.scope_missing` with `details.required` (the first scope to add), `details.missing` (all of them) and `details.nodeTypes`. Sessions are not narrowed.',
  fr: 'Avec une clé d’API, la clé doit aussi détenir chaque portée qu’impliquent les types de nœuds du graphe (`scopes` et `parameterScopes` dans GET /api/v1/node-types ; un sous-workflow ou une boucle ajoute les portées des workflows qu’il appelle), sinon 403 `api_key.scope_missing` avec `details.required` (la première portée à ajouter), `details.missing` (toutes) et `details.nodeTypes`. Les sessions ne sont pas restreintes.',
} as const;

/** A route description followed by the rule. */
export function withGraphScopeRule(description: { en: string; fr: string }, note?: { en: string; fr: string }): { en: string; fr: string } {
  return {
    en: `${description.en} ${graphScopeRule.en}${note ? ` ${note.en}` : ''}`,
    fr: `${description.fr} ${graphScopeRule.fr}${note ? ` ${note.fr}` : ''}`,
  };
}
