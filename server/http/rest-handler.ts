/**
 * The REST surface `/api/v1/...`: our adapter over trpc-to-openapi's node handler.
 *
 * What it adds around the procedures: the 5 MB body bound (413) read before anything else, JSON
 * parsing with a clear 400, an empty POST body read as `{}`, and one error envelope
 * `{"error":{"code","message","details"}}` with the catalogue's status for every failure.
 * The node handler is built once (its fetch adapter rebuilds it, and the OpenAPI document, per request).
 */
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { AppError } from '../core/errors/app-error';
import { createRequestContext, type RequestContext } from '../trpc/context';
import { logIfUnexpected } from '../trpc/errors';
import { IdempotentReplay } from '../trpc/middleware/idempotency';
import { appRouter } from '../trpc/root';
import { routeByProcedurePath } from '../trpc/route-table';
import { errorResponse } from './error-response';
import { assertJsonOrUntyped, isJsonMediaType, maxBodyBytes, parseJson, readBodyWithin } from './body';
import { queryValuesOf } from './query';
import { keepBodyInputsStrict } from './strict-body-inputs';

type NodeHandler = ReturnType<typeof createOpenApiNodeHttpHandler>;

interface CapturedRequest {
  error?: unknown;
  ctx?: RequestContext;
}

const captured = new WeakMap<object, CapturedRequest>();

type AnyRouter = typeof appRouter;

function successStatusOf(router: AnyRouter, path: string | undefined): number {
  return (path && routeByProcedurePath(path, router)?.status) || 200;
}

function createNodeHandler(router: AnyRouter): NodeHandler {
  keepBodyInputsStrict(router);
  return createOpenApiNodeHttpHandler({
    router,
    createContext: ({ req }: { req: Request }) => {
      const ctx = createRequestContext('rest', req.headers, req.method);
      captured.get(req)!.ctx = ctx;
      return ctx;
    },
    responseMeta: ({ paths, errors, ctx }: { paths?: string[]; errors: unknown[]; ctx?: RequestContext }) =>
      errors.length ? {} : { status: ctx?.answer?.successStatus ?? successStatusOf(router, paths?.[0]) },
    onError: ({ error, req }: { error: unknown; req: Request }) => {
      captured.get(req)!.error = error;
    },
  } as never);
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
export function createRestHandler(router: AnyRouter): (request: Request) => Promise<Response> {
  let handler: NodeHandler | null = null;
  return (request) => serveRest(request, (handler ??= createNodeHandler(router)));
}

export const handleRestRequest = createRestHandler(appRouter);

async function serveRest(request: Request, handler: NodeHandler): Promise<Response> {
  try {
    const text = await readBodyWithin(request, maxBodyBytes);
    const body = parseBody(request.method, request.headers.get('content-type'), text);
    const headers = new Headers(request.headers);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const plain = new Request(request.url, { method: request.method, headers, signal: request.signal });
    // The node handler takes `body` and `query` as they are when present: both are read here, the
    // query as own keys only (trpc-to-openapi's own reader indexes a plain object with the client's
    // keys, so `?constructor=x` or `?__proto__=x` made it throw: a 500 for any route).
    const url = new URL(request.url);
    const query = queryValuesOf(url);
    const proxied = new Proxy(plain, {
      get: (target, prop) => (prop === 'body' ? body : prop === 'query' ? query : Reflect.get(target, prop, target)),
    });
    const state: CapturedRequest = {};
    captured.set(proxied, state);
    const response = await runNodeHandler(handler, proxied);
    if (state.error !== undefined || response.status >= 400) {
      if (state.error !== undefined) logIfUnexpected(state.error, url.pathname);
      return failureResponse(state.error ?? new AppError('request.not_found'), state.ctx?.responseHeaders);
    }
    state.ctx?.responseHeaders.forEach((value, name) => response.headers.append(name, value));
    return response;
  } catch (error) {
    logIfUnexpected(error);
    return failureResponse(error);
  }
}

function runNodeHandler(handler: NodeHandler, req: Request): Promise<Response> {
  return new Promise((resolve, reject) => {
    const responseHeaders = new Headers();
    let statusCode = 200;
    const res = {
      setHeader: (name: string, value: string | string[]) => {
        for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(name, item);
      },
      get statusCode() {
        return statusCode;
      },
      set statusCode(code: number) {
        statusCode = code;
      },
      // A 204 has no body (the Response constructor refuses one): the procedure's `undefined` answer is not sent.
      end: (body?: string) => resolve(new Response(statusCode === 204 ? null : (body ?? null), { status: statusCode, headers: responseHeaders })),
    };
    Promise.resolve(handler(req as never, res as never)).catch(reject);
  });
}
