/**
 * What every operation of the document shares: the texts, the security requirement of an access rule,
 * the common error codes a route can answer and the envelope responses listing them.
 */
import type { Access } from '../core/auth/access';
import { isStateChanging } from '../core/http/cross-origin';
import { statusOf, type ErrorCode } from '../core/errors/catalogue';
import { throttleBuckets, throttleDescription, type ThrottleBucketName } from '../core/http/member-throttles';

export type Lang = 'en' | 'fr';

export const texts = {
  en: {
    title: 'Mail workflow automation service API',
    description:
      'REST API of the service. Authenticate with the `session` cookie (web interface) or `Authorization: Bearer <API key>` (programs). Errors answer `{"error":{"code","message","details"}}`. Limits: each API key 600 requests per sliding minute (429 `api_key.rate_limited`); each member 1,200 requests per sliding minute through all their sessions together (429 `request.rate_limited`, `SESSION_RATE_LIMIT`); at most 50 live keys per member (409 `api_key.limit_reached`); the routes that cost or reach outside (connection checks, forced analyses, test and evaluation runs, uploads, assistant turns) are throttled per member whatever the credential, as each says (429 `request.throttled`). Every 429 carries `Retry-After` and `details.retryAfterSeconds`.',
    success: 'Successful response',
    error: 'Error; `error.code` is one of the listed codes.',
  },
  fr: {
    title: 'API du service d’automatisation du courrier',
    description:
      'API REST du service. Authentification par le cookie `session` (interface web) ou `Authorization: Bearer <clé d’API>` (programmes). Les erreurs répondent `{"error":{"code","message","details"}}`. Limites : chaque clé d’API 600 requêtes par minute glissante (429 `api_key.rate_limited`) ; chaque membre 1 200 requêtes par minute glissante par l’ensemble de ses sessions (429 `request.rate_limited`, `SESSION_RATE_LIMIT`) ; 50 clés vivantes au plus par membre (409 `api_key.limit_reached`) ; les routes qui coûtent ou sortent de l’instance (vérifications de connexion, analyses forcées, essais et évaluations, téléversements, tours de l’assistant) sont limitées par membre quelle que soit l’authentification, comme chacune l’indique (429 `request.throttled`). Chaque 429 porte `Retry-After` et `details.retryAfterSeconds`.',
    success: 'Réponse réussie',
    error: 'Erreur ; `error.code` est l’un des codes listés.',
  },
} as const;

/** What decides the codes every route can answer besides its own. */
export interface RouteTraits {
  access: Access;
  method: string;
  /** The path as documented, `{name}` for its parameters. */
  path: string;
  hasInput: boolean;
  idempotent?: boolean;
  rateLimited?: boolean;
  /** A per-member throttle applies (429 `request.throttled`). */
  throttled?: boolean;
}

/** Codes every route with these traits can answer, besides its own. */
export function commonErrorCodes({ access, method, path, hasInput, idempotent, rateLimited, throttled }: RouteTraits): ErrorCode[] {
  const codes: ErrorCode[] = ['internal.error'];
  const authenticates = access.kind !== 'public' && access.kind !== 'urlToken';
  // A path parameter that cannot be one (empty, a further `/`) leaves no route to match.
  if (path.includes('{')) codes.push('request.not_found');
  // Any body can be malformed JSON, whether or not the route takes input.
  if (hasInput || isStateChanging(method)) codes.push('request.bad_request');
  if (isStateChanging(method)) {
    codes.push('request.payload_too_large', 'request.unsupported_media_type');
    if (access.kind !== 'urlToken') codes.push('auth.cross_origin');
  }
  // Waiting for a database connection is bounded (DATABASE_ACQUIRE_TIMEOUT_MS): authentication and
  // every write query the database; public reads (branding, health, this document) do not.
  if (authenticates || isStateChanging(method)) codes.push('internal.busy');
  if (rateLimited) codes.push('request.rate_limited');
  if (throttled) codes.push('request.throttled');
  if (idempotent) codes.push('idempotency.invalid_key', 'idempotency.key_reused', 'idempotency.in_progress');
  if (!authenticates) return codes;
  // A key counts against its own limit, a session against its member's (SESSION_RATE_LIMIT).
  codes.push('auth.unauthenticated', 'api_key.rate_limited', 'request.rate_limited');
  if (access.kind === 'session') codes.push('api_key.session_required');
  if (access.kind === 'noKeys') codes.push('api_key.route_not_allowed');
  if (access.kind === 'scope') codes.push('api_key.scope_missing');
  if ('admin' in access && access.admin) codes.push('auth.forbidden');
  return codes;
}

export function securityOf(access: Access): Record<string, string[]>[] {
  switch (access.kind) {
    case 'public':
    case 'urlToken':
      return [];
    case 'session':
    case 'noKeys':
      return [{ sessionCookie: [] }];
    case 'member':
      return [{ sessionCookie: [] }, { apiKey: [] }];
    case 'scope':
      return [{ sessionCookie: [] }, { apiKey: [access.scope] }];
  }
}

export const errorSchemaRef = { $ref: '#/components/schemas/Error' };

export function errorResponses(codes: ErrorCode[], lang: Lang) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: `${texts[lang].error} (${list.join(', ')})`,
        content: { 'application/json': { schema: errorSchemaRef } },
        'x-error-codes': list,
      },
    ]),
  );
}


/** A route's description, ending with the sentence of its per-member throttle when it has one. */
export function describedWithThrottle(description: string, bucket: ThrottleBucketName | undefined, lang: Lang): string {
  return bucket ? `${description} ${throttleDescription(bucket, lang)}` : description;
}

/** The throttle as data, for programs reading the document (`x-throttle`). */
export function throttleExtension(bucket: ThrottleBucketName | undefined) {
  if (!bucket) return {};
  const { setting, defaultLimit, windowSeconds } = throttleBuckets[bucket];
  return { 'x-throttle': { bucket, scope: 'member', limit: defaultLimit, windowSeconds, setting } };
}
