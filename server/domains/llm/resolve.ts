/**
 * Which connection and model serve a purpose. Pure: the caller reads the routing and the
 * connections (in configuration order, oldest first) and passes them in.
 *
 * The order, first that can serve wins (`source`):
 * 1. `purpose`: the administrator's routing entry for the purpose, when its connection still exists
 *    and its model is allowed there (a connection's `enabledModels` may have changed since);
 * 2. `instanceDefault`: the default connection, with its first enabled model, else its provider's
 *    default model (server/domains/llm/catalogue.ts);
 * 3. `configurationOrder`: the first connection, oldest first, that has a model by the same rule.
 * A connection with no model to offer (a generic connection without `enabledModels`) cannot serve
 * by rules 2 and 3. Nothing left: null ("no provider can serve").
 *
 * A requested model (a node naming its model, the assistant's choice) keeps the connection the
 * order above (or the request) designates and is refused when the connection's `enabledModels`
 * does not list it.
 */
import { catalogueModels, providerDefaultModel } from './catalogue';

export interface RoutableConnection {
  id: string;
  provider: string;
  isDefault: boolean;
  /** null or empty: every model is allowed. */
  enabledModels: readonly string[] | null;
}

export interface RoutingEntry {
  purpose: string;
  connectionId: string;
  model: string;
}

export type ResolutionSource = 'purpose' | 'instanceDefault' | 'configurationOrder';

export interface ModelChoice<C extends RoutableConnection> {
  connection: C;
  model: string;
  /** How the connection was found; `requested` when the request named the connection. */
  source: ResolutionSource | 'requested';
}

export interface ModelRequest {
  model: string;
  /** The connection to use; else the first of `provider` in the order above; else the order's own. */
  connectionId?: string;
  provider?: string;
}

export interface Refusal {
  refused: 'connection_not_found' | 'model_not_allowed';
}

export interface ResolveInput<C extends RoutableConnection> {
  routing: readonly RoutingEntry[];
  /** Configuration order: oldest first. */
  connections: readonly C[];
}

/** Whether `model` may be used on the connection: any model unless `enabledModels` lists some. */
export function isModelAllowed(connection: RoutableConnection, model: string): boolean {
  const enabled = connection.enabledModels;
  return !enabled || enabled.length === 0 || enabled.includes(model);
}

/** The model a connection serves when nobody chose one: its first enabled model, else its provider's default. */
export function defaultModelOf(connection: RoutableConnection): string | null {
  const enabled = connection.enabledModels;
  if (enabled && enabled.length > 0) return enabled[0];
  return providerDefaultModel(connection.provider);
}

/** The models offered for a connection: `restricted` when the administrator listed them, else the catalogue as a typing aid. */
export function modelsOf(connection: RoutableConnection): { models: string[]; restricted: boolean } {
  const enabled = connection.enabledModels;
  if (enabled && enabled.length > 0) return { models: [...enabled], restricted: true };
  return { models: catalogueModels(connection.provider), restricted: false };
}

/**
 * Every connection in the order of the rules, with the model it would serve unasked (null: it
 * cannot serve by this rule) and the rule that put it there. A connection may come more than once.
 */
function* ordered<C extends RoutableConnection>(purpose: string, input: ResolveInput<C>): Generator<{ connection: C; model: string | null; source: ResolutionSource }> {
  const entry = input.routing.find((candidate) => candidate.purpose === purpose);
  const routed = entry ? input.connections.find((connection) => connection.id === entry.connectionId) : undefined;
  if (entry && routed) yield { connection: routed, model: isModelAllowed(routed, entry.model) ? entry.model : null, source: 'purpose' };
  const fallback = input.connections.find((connection) => connection.isDefault);
  if (fallback) yield { connection: fallback, model: defaultModelOf(fallback), source: 'instanceDefault' };
  for (const connection of input.connections) yield { connection, model: defaultModelOf(connection), source: 'configurationOrder' };
}

export function resolveModel<C extends RoutableConnection>(purpose: string, input: ResolveInput<C>): ModelChoice<C> | null;
export function resolveModel<C extends RoutableConnection>(purpose: string, input: ResolveInput<C> & { requested?: ModelRequest }): ModelChoice<C> | Refusal | null;
export function resolveModel<C extends RoutableConnection>(purpose: string, input: ResolveInput<C> & { requested?: ModelRequest }): ModelChoice<C> | Refusal | null {
  const requested = input.requested;
  if (!requested) {
    for (const { connection, model, source } of ordered(purpose, input)) if (model !== null) return { connection, model, source };
    return null;
  }
  let choice: ModelChoice<C> | null = null;
  if (requested.connectionId !== undefined) {
    const connection = input.connections.find((candidate) => candidate.id === requested.connectionId);
    if (!connection || (requested.provider !== undefined && connection.provider !== requested.provider)) return { refused: 'connection_not_found' };
    choice = { connection, model: requested.model, source: 'requested' };
  } else {
    // A named model needs no default model: the first connection of the right provider in the order serves it.
    for (const { connection, source } of ordered(purpose, input)) {
      if (requested.provider === undefined || connection.provider === requested.provider) {
        choice = { connection, model: requested.model, source };
        break;
      }
    }
    if (!choice) return requested.provider === undefined ? null : { refused: 'connection_not_found' };
  }
  return isModelAllowed(choice.connection, choice.model) ? choice : { refused: 'model_not_allowed' };
}

/** Narrows a resolution to a choice. */
export function isRefusal<C extends RoutableConnection>(value: ModelChoice<C> | Refusal | null): value is Refusal {
  return value !== null && 'refused' in value;
}
