/**
 * The request pipeline of plain routes, the same steps in the same order as the procedures':
 * cross-origin rule (403) → authenticate (401; a key's own rate limit, 429, is counted there) →
 * per-IP rate limit (429 `request.rate_limited`) → authorize (403) → per-member throttle (429
 * `request.throttled`) → path and query parameters (400)
 * → body, bounded on the bytes read (415, 413, 400) → idempotency → handler. Every failure answers the
 * envelope with the catalogue status; an unexpected error is logged once and answered as an opaque 500.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { authorize, needsAuthentication, type Actor } from '../../core/auth/access';
import { resolveActor } from '../../core/auth/authenticate';
import { appError, rateLimitError } from '../../core/errors/app-error';
import { simplifyIssue } from '../../core/errors/zod-issues';
import { clientIpHeader } from '../../core/http/client-headers';
import { isStateChanging } from '../../core/http/cross-origin';
import { guardCrossOrigin } from '../../core/http/cross-origin-rule';
import { assertValidIdempotencyKey, claimIdempotencyKey, idempotencyKeyHeader, settleIdempotencyKey } from '../../core/http/idempotency-claim';
import { requestHashOf } from '../../core/http/idempotency-store';
import { throttleMember } from '../../core/http/member-throttles';
import { hit, rateLimitSubject } from '../../core/http/rate-limit';
import { assertStorableText } from '../../core/http/storable-text';
import { envelopeOf, logIfUnexpected } from '../../trpc/errors';
import { errorResponse } from '../error-response';
import { assertDeclaredLengthWithin, isJsonMediaType, maxBodyBytes, mediaTypeOf, parseJson, readBytesWithin, assertJsonOrUntyped } from '../body';
import { queryObjectOf } from '../query';
import { perIpLimitOf, type PlainRoute } from './plain-route';
import type { PlainRouter } from './plain-router';
import { bufferedTextOf, jsonAnswer, textAnswer } from '../json-answer';

function checked<S extends z.ZodType>(schema: S, value: unknown, where: 'path' | 'query' | 'body'): z.output<S> {
  assertStorableText(value, where);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw appError('request.bad_request', { details: { in: where, issues: parsed.error.issues.map(simplifyIssue) } });
}

async function authenticated(route: PlainRoute, request: Request): Promise<Actor> {
  guardCrossOrigin(route.access, request.method, request.headers);
  if (!needsAuthentication(route.access)) return { kind: 'anonymous' };
  const actor = await resolveActor(request.headers);
  if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
  return actor;
}

async function limitPerIp(route: PlainRoute, request: Request): Promise<void> {
  const rule = perIpLimitOf(route);
  if (!rule) return;
  // IPv6 clients count per /64, as sign-in does: one subscriber holds the whole network.
  const subject = rateLimitSubject(request.headers.get(clientIpHeader));
  const result = await hit({ key: `ip:${route.method} ${route.path}:${subject}`, ...rule });
  if (!result.allowed) throw rateLimitError('request.rate_limited', result.retryAfterSeconds);
}

/** The body as the route takes it: refused by type (415), bounded (413), parsed and checked when JSON. */
async function bodyOf(route: PlainRoute, request: Request): Promise<unknown> {
  const contentType = request.headers.get('content-type');
  if (!route.body) {
    if (isStateChanging(request.method)) assertJsonOrUntyped(contentType);
    return Buffer.alloc(0);
  }
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === null || !route.body.mediaTypes.includes(mediaType)) {
    throw appError('request.unsupported_media_type', {
      message: `This route takes ${route.body.mediaTypes.join(' or ')}.`,
      details: { accepted: route.body.mediaTypes },
    });
  }
  if (route.body.streamed) {
    assertDeclaredLengthWithin(request, route.maxBodyBytes ?? maxBodyBytes);
    return Buffer.alloc(0);
  }
  const bytes = await readBytesWithin(request, route.maxBodyBytes ?? maxBodyBytes);
  if (!route.body.schema) return bytes;
  if (!isJsonMediaType(contentType)) return checked(route.body.schema, bytes, 'body');
  return checked(route.body.schema, parseJson(bytes.toString('utf8')), 'body');
}

/** Runs the handler under the route's idempotency: a JSON answer is stored and replayed, others are not kept. */
async function idempotent(route: PlainRoute, request: Request, actor: Actor, fingerprint: () => unknown, run: () => Promise<Response>): Promise<Response> {
  const key = request.headers.get(idempotencyKeyHeader);
  if (!route.idempotent || key === null || actor.kind === 'anonymous') return run();
  assertValidIdempotencyKey(key);
  const decision = await claimIdempotencyKey({ memberId: actor.member.id, route: `${route.method} ${route.path}`, key, requestHash: requestHashOf(fingerprint()) });
  if (decision.kind === 'replay') return jsonAnswer(decision.body, decision.status, { 'Idempotency-Replayed': 'true' });
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    await settleIdempotencyKey(decision.recordId, envelopeOf(error));
    throw error;
  }
  // Only JSON answers are kept for replay (a download is not).
  const storable = isJsonMediaType(response.headers.get('content-type'));
  const text = storable ? (bufferedTextOf(response) ?? (await response.text())) : null;
  const outcome = await settleIdempotencyKey(decision.recordId, { status: response.status, body: text ? JSON.parse(text) : null, storable });
  const headers = new Headers(response.headers);
  if (outcome === 'unsupported') headers.set('Idempotency-Replayed', 'unsupported');
  // The stored text is the answer: written whole, as its replays are.
  return text === null ? new Response(response.body, { status: response.status, headers }) : textAnswer(text, response.status, headers);
}

export async function servePlainRoute(route: PlainRoute, rawParams: Record<string, string>, request: Request): Promise<Response> {
  try {
    const actor = await authenticated(route, request);
    await limitPerIp(route, request);
    if (actor.kind !== 'anonymous') {
      authorize(route.access, actor);
      if (route.throttle) await throttleMember(route.throttle.bucket, actor.member.id);
    }
    const params = checked(route.params, rawParams, 'path');
    const query = route.query ? checked(route.query, queryObjectOf(new URL(request.url)), 'query') : {};
    const body = await bodyOf(route, request);
    const origin = { ip: request.headers.get(clientIpHeader), userAgent: request.headers.get('user-agent') };
    // What makes two requests "the same" for an Idempotency-Key: raw bodies by their digest.
    const fingerprint = () => ({ params, query, body: Buffer.isBuffer(body) ? createHash('sha256').update(body).digest('hex') : body });
    return await idempotent(route, request, actor, fingerprint, async () =>
      route.handle({ request, actor, params, query, body: body as never, origin }),
    );
  } catch (error) {
    logIfUnexpected(error, `${route.method} ${route.path}`);
    return errorResponse(error);
  }
}

/** The plain routes' handler: null when no route has this method and path (the caller moves on). */
export function createPlainHandler(router: PlainRouter): (request: Request) => Promise<Response> | null {
  return (request) => {
    const url = new URL(request.url);
    let found: ReturnType<PlainRouter['match']>;
    try {
      found = router.match(request.method, url.pathname);
    } catch (error) {
      return Promise.resolve(errorResponse(error));
    }
    if (found) return servePlainRoute(found.route, found.params, request);
    // A plain route's path with another method: 405 here, rather than a 404 from the next handler.
    if (router.hasPath(url.pathname)) return Promise.resolve(errorResponse(appError('request.method_not_allowed')));
    return null;
  };
}
