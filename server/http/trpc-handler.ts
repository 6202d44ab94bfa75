/** The UI's tRPC endpoint `/api/trpc`: same procedures and pipeline as REST, tRPC wire format. */
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createRequestContext, type RequestContext } from '../trpc/context';
import { logIfUnexpected } from '../trpc/errors';
import { appRouter } from '../trpc/root';
import { maxBodyBytes } from './body';
import { AppError } from '../core/errors/app-error';

export async function handleTrpcRequest(request: Request): Promise<Response> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    return Response.json(new AppError('request.payload_too_large').toBody(), { status: 413 });
  }
  const contexts = new WeakMap<Request, RequestContext>();
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: ({ req }) => {
      const ctx = createRequestContext('trpc', req.headers);
      contexts.set(request, ctx);
      return ctx;
    },
    responseMeta: () => {
      const headers = contexts.get(request)?.responseHeaders;
      return headers ? { headers } : {};
    },
    onError: ({ error, path }) => logIfUnexpected(error, path),
  });
}
