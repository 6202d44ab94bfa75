/**
 * The REST surface `/api/v1/...`: the procedures' routes (their OpenAPI meta), called by our dispatcher
 * (rest-dispatch.ts: the route table and the input as trpc-to-openapi builds it, worked out once per route).
 *
 * What it adds around the procedures: the 5 MB body bound (413) read before anything else, JSON
 * parsing with a clear 400, an empty POST body read as `{}`, and one error envelope
 * `{"error":{"code","message","details"}}` with the catalogue's status for every failure.
 */
import { TRPCError } from '@trpc/server';
import { AppError } from '../core/errors/app-error';
import { createRequestContext, type RequestContext } from '../trpc/context';
import { logIfUnexpected } from '../trpc/errors';
import { IdempotentReplay } from '../trpc/middleware/idempotency';
import { appRouter } from '../trpc/root';
import { errorResponse } from './error-response';
import { assertJsonOrUntyped, isJsonMediaType, maxBodyBytes, parseJson, readBodyWithin } from './body';
import { jsonAnswer } from './json-answer';
import { queryValuesOf } from './query';
import { callRestProcedure, procedureErrorOf, RestRouteTable, type RestRouter } from './rest-dispatch';
import { keepBodyInputsStrict } from './strict-body-inputs';

function createRouteTable(router: RestRouter): RestRouteTable {
  keepBodyInputsStrict(router as typeof appRouter);
  return new RestRouteTable(router);
}

/** An error, or the stored answer of an idempotent request replayed as it was first given. */
function failureResponse(error: unknown, extraHeaders?: Headers): Response {
  const replay = error instanceof IdempotentReplay ? error : (error as { cause?: unknown })?.cause;
  if (replay instanceof IdempotentReplay) return Response.json(replay.body, { status: replay.status, headers: { 'Idempotency-Replayed': 'true' } });
  return errorResponse(error, extraHeaders);
}

/**
 * Parses the body the way the node handler expects it: JSON, or `{}` when a body-taking request sends
 * none. A declared type other than JSON is 415 even with an empty body (see assertJsonOrUntyped).
 */
function parseBody(method: string, contentType: string | null, text: string): unknown {
  if (method !== 'GET' && method !== 'HEAD') assertJsonOrUntyped(contentType);
  if (text.trim() === '') return method === 'GET' || method === 'DELETE' ? undefined : {};
  if (!isJsonMediaType(contentType)) throw new AppError('request.unsupported_media_type');
  return parseJson(text);
}

/**
 * Builds the REST handler of a router. The service mounts `handleRestRequest` (the app router); tests
 * of the pipeline's generic mechanisms (idempotency) build one over a small router of their own.
 */
export function createRestHandler(router: RestRouter): (request: Request) => Promise<Response> {
  let table: RestRouteTable | null = null;
  return (request) => serveRest(request, (table ??= createRouteTable(router)));
}

export const handleRestRequest = createRestHandler(appRouter);

/** The headers the procedure sees: the client's, with the JSON type of the body read for it (an empty POST's `{}`). */
function contextHeaders(request: Request, body: unknown): Headers {
  if (body === undefined || request.headers.get('content-type') === 'application/json') return request.headers;
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  return headers;
}

async function serveRest(request: Request, table: RestRouteTable): Promise<Response> {
  let ctx: RequestContext | undefined;
  let pathname: string | undefined;
  try {
    const text = await readBodyWithin(request, maxBodyBytes);
    const body = parseBody(request.method, request.headers.get('content-type'), text);
    // The query as own keys only (a plain object indexed with the client's keys made `?constructor=x` a 500).
    const url = new URL(request.url);
    pathname = url.pathname;
    const match = table.match(request.method, url.pathname);
    if (!match) {
      // As trpc-to-openapi answered: a HEAD nobody routes is a warm-up, 204; anything else not found.
      if (request.method === 'HEAD') return new Response(null, { status: 204, headers: { 'content-type': 'application/json' } });
      throw new TRPCError({ message: 'Not found', code: 'NOT_FOUND' });
    }
    ctx = createRequestContext('rest', contextHeaders(request, body), request.method);
    const { status, data } = await callRestProcedure({ method: request.method, match, ctx, body, query: queryValuesOf(url) });
    const response = jsonAnswer(status === 204 ? undefined : data, status);
    ctx.responseHeaders.forEach((value, name) => response.headers.append(name, value));
    return response;
  } catch (cause) {
    const error = pathname === undefined ? cause : procedureErrorOf(cause);
    logIfUnexpected(error, pathname);
    return failureResponse(error, ctx?.responseHeaders);
  }
}
