/**
 * Access rules: each route declares exactly one, next to its definition (see server/trpc/meta.ts).
 *
 * - `public`: no authentication (sign-in, health, branding, OpenAPI).
 * - `urlToken`: authorised by a token carried in the URL (approval links, webhooks); keys and sessions are ignored.
 * - `session`: a member session only; an API key gets 403 `api_key.session_required`.
 * - `member`: any signed-in member, by session or by any valid key (no scope needed).
 * - `scope`: a session, or a key holding the scope.
 * - `noKeys`: a session only; a key gets 403 `api_key.route_not_allowed`.
 * `admin: true` additionally requires the member (the key's owner) to be an administrator.
 */
import { appError } from '../errors/app-error';
import { scopesCover, scopesToAdd, type Scope } from './scopes';

export type Access =
  | { kind: 'public' }
  | { kind: 'urlToken' }
  | { kind: 'session'; admin?: boolean }
  | { kind: 'noKeys'; admin?: boolean }
  | { kind: 'member'; admin?: boolean }
  | { kind: 'scope'; scope: Scope; admin?: boolean };

/** The caller's member row as read while authenticating (an authenticated member is always active). */
export interface MemberIdentity {
  id: string;
  email: string;
  name: string;
  role: 'member' | 'admin';
  createdAt: Date;
}

/**
 * What the Member resource says about the caller beyond its row: counts other domains own and the
 * generated-password flag. Read in the authentication statement itself when the route answers them
 * (`memberFigures` in its route meta: `GET /api/v1/auth/me`), so that route costs one round trip.
 */
export interface MemberFigures {
  /** Every mailbox of the member, whatever its status. */
  mailboxCount: number;
  /** Workflows with a published version. */
  publishedWorkflowCount: number;
  /** The member still signs in with a generated password. */
  mustChangePassword: boolean;
}

export type Actor =
  | { kind: 'anonymous' }
  | { kind: 'session'; member: MemberIdentity; sessionId: string; figures?: MemberFigures }
  | { kind: 'apiKey'; member: MemberIdentity; keyId: string; scopes: string[]; figures?: MemberFigures }
  /**
   * A workflow run acting for its member (server/engine/run/actor.ts): the member's rights, never
   * more; it reaches services through the engine's capabilities, never a route.
   */
  | { kind: 'execution'; member: MemberIdentity; executionId: string };

export type ExecutionActor = Extract<Actor, { kind: 'execution' }>;

export type AuthenticatedActor = Exclude<Actor, { kind: 'anonymous' }>;

export function needsAuthentication(access: Access): boolean {
  return access.kind !== 'public' && access.kind !== 'urlToken';
}

/**
 * Decides whether an authenticated actor may call a route. Throws the catalogue's 403 otherwise.
 * Called after authentication and rate limiting, as the spec orders them.
 */
export function authorize(access: Access, actor: AuthenticatedActor): void {
  // Runs act through capabilities; no route is open to them.
  if (actor.kind === 'execution') throw appError('auth.forbidden');
  if (actor.kind === 'apiKey') {
    if (access.kind === 'session') throw appError('api_key.session_required');
    if (access.kind === 'noKeys') throw appError('api_key.route_not_allowed');
    if (access.kind === 'scope' && !scopesCover(actor.scopes, access.scope)) {
      throw appError('api_key.scope_missing', { details: { required: access.scope } });
    }
  }
  if ('admin' in access && access.admin && actor.member.role !== 'admin') throw appError('auth.forbidden');
}

/**
 * One scope a workflow write or run through a key needs, and who asks for it: node types of the graph
 * or of the workflows it calls, those workflows, or a reason that is not a node (`test_message`: a
 * test run on a mirrored message; `draft_write`: the assistant writing a draft;
 * `send_without_review`; `journal_baseline`: an evaluation showing real runs).
 */
export interface ScopeNeed {
  scope: Scope;
  nodeTypes?: readonly string[];
  workflowIds?: readonly string[];
  reasons?: readonly string[];
}

const sortedUnion = (lists: (readonly string[] | undefined)[]) => [...new Set(lists.flatMap((list) => list ?? []))].sort();

/**
 * Scopes follow into workflows (issue 18, item 4): an API key's caller must hold every scope `needs`
 * lists, else 403 `api_key.scope_missing` with `details.required` (the first scope to add, catalogue
 * order), `details.missing` (every scope to add), `details.nodeTypes` (what needs them) and, when
 * they apply, `details.workflowIds` and `details.reasons`. Sessions (and runs) are not narrowed by
 * scopes; an administrator's key is, like anyone's (Authentication 13).
 */
export function authorizeScopeNeeds(actor: AuthenticatedActor, needs: readonly ScopeNeed[]): void {
  if (actor.kind !== 'apiKey') return;
  const missing = scopesToAdd(actor.scopes, needs.map((need) => need.scope));
  if (missing.length === 0) return;
  // A need is unmet when its scope is not covered; its askers are named even when adding another scope (x:write) covers it.
  const unmet = needs.filter((need) => !scopesCover(actor.scopes, need.scope));
  const workflowIds = sortedUnion(unmet.map((need) => need.workflowIds));
  const reasons = sortedUnion(unmet.map((need) => need.reasons));
  throw appError('api_key.scope_missing', {
    message: `The API key lacks ${missing.join(', ')}, which this workflow needs: add ${missing.length === 1 ? 'it' : 'them'} to the key, or use a key that has ${missing.length === 1 ? 'it' : 'them'}.`,
    details: {
      required: missing[0],
      missing,
      nodeTypes: sortedUnion(unmet.map((need) => need.nodeTypes)),
      ...(workflowIds.length ? { workflowIds } : {}),
      ...(reasons.length ? { reasons } : {}),
    },
  });
}
