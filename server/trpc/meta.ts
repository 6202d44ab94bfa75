/**
 * Route metadata: everything the request pipeline enforces and the OpenAPI document shows, declared
 * once on each procedure with `route({...})`.
 */
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Access } from '../core/auth/access';
import type { ErrorCode } from '../core/errors/catalogue';
import type { ThrottleBucketName } from '../core/http/member-throttles';

/**
 * A per-member throttle on a route (server/core/http/member-throttles.ts): one use of `bucket` per
 * request, counted after authorisation, before idempotency and input validation (a malformed probe
 * counts too). `counts` narrows it to some inputs (a forced analysis), given the raw input.
 */
export interface RouteThrottle {
  bucket: ThrottleBucketName;
  counts?: (rawInput: unknown) => boolean;
}

export interface Localised {
  en: string;
  fr: string;
}

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Full path as in the spec, e.g. `/api/v1/api-keys/{id}/revoke`. */
  path: `/${string}`;
  access: Access;
  /** The spec flags the operation `Idempotency`: it accepts an `Idempotency-Key` header. */
  idempotent?: boolean;
  /** Success status; 200 unless the spec says 201, 202 or 204 (204: the answer has no body). */
  status?: 200 | 201 | 202 | 204;
  /** A second success status the route answers when its answer says so (a replay's dry run: 200); see RequestContext.answer. */
  alsoStatus?: 200 | 201 | 202;
  /** Route-specific error codes (the common ones from access and validation are added automatically). */
  errors?: ErrorCode[];
  /**
   * The code of this route's 400 for input that does not match its schema (unstorable text included),
   * when the spec gives the route its own (`webmail.bad_request`); default `request.bad_request`.
   * What fails before the procedure (a body that is not JSON) stays `request.bad_request`.
   */
  badRequestCode?: ErrorCode;
  /** Per-member throttle of what costs or reaches outside; the document's description says so. */
  throttle?: RouteThrottle;
  /**
   * The answer carries the caller's figures (MemberFigures of server/core/auth/access.ts): authentication
   * reads them in its one statement, so the route makes no other round trip for them.
   */
  memberFigures?: boolean;
  summary: Localised;
  description: Localised;
  tag: string;
}

export type RouteMeta = OpenApiMeta & { route?: RouteSpec };

export function route(spec: RouteSpec): RouteMeta {
  return {
    route: spec,
    openapi: {
      method: spec.method,
      path: spec.path,
      summary: spec.summary.en,
      description: spec.description.en,
      tags: [spec.tag],
      protect: spec.access.kind !== 'public' && spec.access.kind !== 'urlToken',
    },
  };
}
