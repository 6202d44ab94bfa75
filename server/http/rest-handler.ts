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
import type { RequestHeaders } from '../core/http/client-headers';
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

/**
 * A REST request as the handler reads it, whatever carried it: a fetch `Request` (handleRestRequest), or
 * node:http directly for a request without a body (rest-direct.ts).
 */
export interface RestRequest {
  method: string;
  url: URL;
  headers: RequestHeaders;
  /** The body's text, bounded on the bytes read (413 `request.payload_too_large` beyond maxBodyBytes). */
  bodyText(): Promise<string>;
}

/**
 * How a REST request is answered: the procedure's data with its status and the headers the procedure set
 * (written by the transport), or a ready Response (a failure, a replay, a HEAD nobody routes).
 */
export type RestOutcome = { kind: 'data'; status: number; data: unknown; headers: Headers } | { kind: 'response'; response: Response };

/** An error, or the stored answer of an idempotent request replayed as it was first given. */
function failureResponse(error: unknown, extraHeaders?: Headers): Response {
  const replay = error instanceof IdempotentReplay ? error : (error as { cause?: unknown })?.cause;
  if (replay instanceof IdempotentReplay) return jsonAnswer(replay.body, replay.status, { 'Idempotency-Replayed': 'true' });
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

/** The headers the procedure sees: the client's, with the JSON type of the body read for it (an empty POST's `{}`). */
function contextHeaders(headers: RequestHeaders, body: unknown): RequestHeaders {
  if (body === undefined || headers.get('content-type') === 'application/json') return headers;
  const isContentType = (name: string) => name.toLowerCase() === 'content-type';
  return {
    get: (name) => (isContentType(name) ? 'application/json' : headers.get(name)),
    has: (name) => isContentType(name) || headers.has(name),
  };
}

async function answerRest(request: RestRequest, table: RestRouteTable): Promise<RestOutcome> {
  let ctx: RequestContext | undefined;
  let pathname: string | undefined;
  try {
    const text = await request.bodyText();
    const body = parseBody(request.method, request.headers.get('content-type'), text);
    pathname = request.url.pathname;
    const match = table.match(request.method, pathname);
    if (!match) {
      // As trpc-to-openapi answered: a HEAD nobody routes is a warm-up, 204; anything else not found.
      if (request.method === 'HEAD') return { kind: 'response', response: new Response(null, { status: 204, headers: { 'content-type': 'application/json' } }) };
      throw new TRPCError({ message: 'Not found', code: 'NOT_FOUND' });
    }
    ctx = createRequestContext('rest', contextHeaders(request.headers, body), request.method);
    // The query as own keys only (a plain object indexed with the client's keys made `?constructor=x` a 500).
    const { status, data } = await callRestProcedure({ method: request.method, match, ctx, body, query: queryValuesOf(request.url) });
    return { kind: 'data', status, data: status === 204 ? undefined : data, headers: ctx.responseHeaders };
  } catch (cause) {
    const error = pathname === undefined ? cause : procedureErrorOf(cause);
    logIfUnexpected(error, pathname);
    return { kind: 'response', response: failureResponse(error, ctx?.responseHeaders) };
  }
}

/** Answers REST requests of a router (its route table built at the first request). */
export function createRestAnswerer(router: RestRouter): (request: RestRequest) => Promise<RestOutcome> {
  let table: RestRouteTable | null = null;
  return (request) => answerRest(request, (table ??= createRouteTable(router)));
}

function fetchRestRequest(request: Request): RestRequest {
  return { method: request.method, url: new URL(request.url), headers: request.headers, bodyText: () => readBodyWithin(request, maxBodyBytes) };
}

function responseOf(outcome: RestOutcome): Response {
  if (outcome.kind === 'response') return outcome.response;
  const response = jsonAnswer(outcome.data, outcome.status);
  outcome.headers.forEach((value, name) => response.headers.append(name, value));
  return response;
}

/** A REST answerer over fetch: the request read from a `Request`, the outcome made a `Response`. */
function overFetch(answer: (request: RestRequest) => Promise<RestOutcome>): (request: Request) => Promise<Response> {
  return async (request) => responseOf(await answer(fetchRestRequest(request)));
}

/**
 * The REST handler of a router over fetch. The service mounts `handleRestRequest` (the app router); tests
 * of the pipeline's generic mechanisms (idempotency) build one over a small router of their own.
 */
export function createRestHandler(router: RestRouter): (request: Request) => Promise<Response> {
  return overFetch(createRestAnswerer(router));
}

/** The app router's REST requests, as the web server's direct path reads them (rest-direct.ts). */
export const answerRestRequest = createRestAnswerer(appRouter);

export const handleRestRequest = overFetch(answerRestRequest);
