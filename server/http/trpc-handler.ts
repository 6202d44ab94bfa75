/**
 * The UI's tRPC endpoint `/api/trpc`: same procedures and pipeline as REST, tRPC wire format.
 *
 * What it adds around tRPC's fetch adapter, whose errors all leave through the router's error
 * formatter (tRPC's own shape, the catalogue envelope in `error.data.appError`):
 * - the body is JSON only and read within the 5 MB bound on the bytes actually read: tRPC would read
 *   any body whole, and would take `multipart/form-data` (which an HTML form on another site can post);
 * - a batch holds at most `maxBatchCalls` calls (the UI client batches at most `uiBatchMaxItems`).
 */
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appError } from '../core/errors/app-error';
import { createRequestContext, type RequestContext } from '../trpc/context';
import { logIfUnexpected } from '../trpc/errors';
import { appRouter } from '../trpc/root';
import { assertJsonOrUntyped, maxBodyBytes, parseJson, readBodyWithin } from './body';

/** Calls per batch request. Each call runs the whole pipeline; a batch must not multiply one request's cost without bound. */
export const maxBatchCalls = 20;

/**
 * The request as tRPC sees it: tRPC picks its body reader by Content-Type, so a body-taking request
 * is presented as JSON, and its reader is ours (bounded, 415 for another declared type, 400 for bad JSON).
 */
function jsonOnlyRequest(request: Request): Request {
  const takesBody = request.method !== 'GET' && request.method !== 'HEAD';
  const headers = new Headers(request.headers);
  if (takesBody) headers.set('content-type', 'application/json');
  const json = async () => {
    assertJsonOrUntyped(request.headers.get('content-type'));
    return parseJson(await readBodyWithin(request, maxBodyBytes));
  };
  const refuse = async () => {
    throw appError('request.unsupported_media_type');
  };
  return new Proxy(request, {
    get(target, prop) {
      if (prop === 'headers') return headers;
      if (prop === 'json') return json;
      if (prop === 'text' || prop === 'formData' || prop === 'arrayBuffer' || prop === 'blob' || prop === 'bytes') return refuse;
      if (prop === 'body') return null;
      return Reflect.get(target, prop, target);
    },
  });
}

export async function handleTrpcRequest(request: Request): Promise<Response> {
  let ctx: RequestContext | undefined;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: jsonOnlyRequest(request),
    router: appRouter,
    createContext: ({ info }) => {
      if (info.calls.length > maxBatchCalls) {
        throw appError('request.bad_request', {
          message: `A batch holds at most ${maxBatchCalls} calls.`,
          details: { reason: 'batch_too_large', maxCalls: maxBatchCalls, calls: info.calls.length },
        });
      }
      ctx = createRequestContext('trpc', request.headers, request.method);
      return ctx;
    },
    responseMeta: () => (ctx ? { headers: ctx.responseHeaders } : {}),
    onError: ({ error, path }) => logIfUnexpected(error, path),
  });
}
