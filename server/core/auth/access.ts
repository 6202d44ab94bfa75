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
import { scopesCover, type Scope } from './scopes';

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

export type Actor =
  | { kind: 'anonymous' }
  | { kind: 'session'; member: MemberIdentity; sessionId: string }
  | { kind: 'apiKey'; member: MemberIdentity; keyId: string; scopes: string[] }
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
