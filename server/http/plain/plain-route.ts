/**
 * A plain route: an HTTP route that is not a JSON procedure (a download, an upload, a page reached
 * from an email link, a webhook entry). Declared once with `plainRoute({...})`; the declaration drives
 * routing (plain-router.ts), the pipeline (pipeline.ts: cross-origin rule → authenticate → per-IP rate
 * limit → authorize → per-member throttle → parameters → body → idempotency → handler, errors in the
 * envelope, unexpected ones logged) and the route's OpenAPI entry (server/openapi/plain-paths.ts), so
 * nothing about it is written twice.
 */
import type { z } from 'zod';
import type { Access, Actor } from '../../core/auth/access';
import type { ErrorCode } from '../../core/errors/catalogue';
import type { ThrottleBucketName } from '../../core/http/member-throttles';
import type { Localised } from '../../trpc/meta';

type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface PlainRouteBody<B extends z.ZodType | undefined = z.ZodType | undefined> {
  /** Media types the route takes (matched without parameters, e.g. `multipart/form-data`). */
  mediaTypes: string[];
  /** For `application/json` bodies: the schema the parsed body must match (400 otherwise). */
  schema?: B;
  /**
   * The handler reads the body itself, as a stream (`boundedBodyStream(request, bound)` from
   * server/http/body.ts), for bodies too large to hold whole (an upload). The pipeline checks the
   * media type and the declared length against the bound, and hands the handler an empty buffer.
   */
  streamed?: boolean;
  description?: Localised;
}

export interface PerIpRateLimit {
  /**
   * Requests per client address (an IPv6 address counts with its /64) in the sliding window. A function when a
   * setting decides it (the webhook's WEBHOOK_RATE_LIMIT): read on each request, so the parsed configuration is
   * the one source. 0 turns the limit off.
   */
  limit: number | (() => number);
  windowSeconds: number;
}

/** The route's per-address limit as it applies now, or null when the route has none or its setting turns it off. */
export function perIpLimitOf(route: { rateLimit?: PerIpRateLimit }): { limit: number; windowSeconds: number } | null {
  if (!route.rateLimit) return null;
  const { limit, windowSeconds } = route.rateLimit;
  const value = typeof limit === 'function' ? limit() : limit;
  return value > 0 ? { limit: value, windowSeconds } : null;
}

export interface PlainRouteSuccess {
  /** 302: a page the browser is sent on to (its `Location`), without a body. */
  status: 200 | 201 | 202 | 204 | 302;
  /** Media type of the success body, e.g. `text/csv`, `application/json`. */
  mediaType: string;
  /** Shape of a JSON success body, for the document. */
  schema?: z.ZodType;
  description: Localised;
}

export interface PlainInput<P extends AnyObjectSchema, Q extends AnyObjectSchema, B> {
  request: Request;
  /** The caller; `anonymous` on `public` and `urlToken` routes (a URL token is checked by the handler). */
  actor: Actor;
  params: z.output<P>;
  query: z.output<Q>;
  /** Parsed and checked JSON when the route gives a body schema, else the raw bytes (empty without body). */
  body: B;
  /** Client address and user agent, as plain values for services. */
  origin: { ip: string | null; userAgent: string | null };
}

export interface PlainRouteSpec<P extends AnyObjectSchema, Q extends AnyObjectSchema, B extends z.ZodType | undefined> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Full path with `{name}` segments, e.g. `/api/v1/tables/{id}/export.csv`. */
  path: `/${string}`;
  access: Access;
  /** Path parameters, one key per `{name}` of the path. */
  params: P;
  /** Query parameters; make it `.strict()` to answer 400 for unknown ones. */
  query?: Q;
  /** The body the route takes; without it the route takes none (JSON-typed or untyped requests only). */
  body?: PlainRouteBody<B>;
  /** Body bound counted on the bytes read; default 5 MB (the spec's request body bound). */
  maxBodyBytes?: number;
  /** Requests per client address, counted before authorisation (webhook entries, email-link pages). */
  rateLimit?: PerIpRateLimit;
  /** Per-member throttle (server/core/http/member-throttles.ts), counted after authorisation. */
  throttle?: { bucket: ThrottleBucketName };
  /** Accepts an `Idempotency-Key` header (authenticated callers; JSON answers are replayed). */
  idempotent?: boolean;
  success: PlainRouteSuccess;
  /** Route-specific error codes (the common ones of the access rule, bound and limits are added). */
  errors?: ErrorCode[];
  summary: Localised;
  description: Localised;
  tag: string;
  handle(input: PlainInput<P, Q, B extends z.ZodType ? z.output<B> : Buffer>): Promise<Response> | Response;
}

/** A declared plain route, with its generic types erased for the route table. */
export type PlainRoute = PlainRouteSpec<AnyObjectSchema, AnyObjectSchema, z.ZodType | undefined>;

export function plainRoute<P extends AnyObjectSchema, Q extends AnyObjectSchema, B extends z.ZodType | undefined = undefined>(
  spec: PlainRouteSpec<P, Q, B>,
): PlainRoute {
  return spec as unknown as PlainRoute;
}
