/**
 * The web server's API entry: the UI's tRPC endpoint, the plain routes and the REST procedures, in that
 * order. These requests skip the Next.js request pipeline (≈ 2 ms of CPU per request, measured by
 * `npm run bench`), and their bodies are read from the socket by our bounded reader (node-bridge.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveWithFetchHandler } from './node-bridge';
import { createPlainHandler } from './plain/pipeline';
import { plainRouter } from './plain/routes';
import { directTargetOf, serveBodilessRest } from './rest-direct';
import { handleRestRequest } from './rest-handler';
import { handleTrpcRequest } from './trpc-handler';

const trpcPrefix = '/api/trpc/';
const restPrefix = '/api/v1/';
/** Inbound webhooks (`/hooks/wf/{token}`): everything under it is the API's, so a malformed path answers the JSON envelope, not a page. */
const hooksPrefix = '/hooks/';
/** The API reference's files (`/api/reference/assets/{name}`): likewise, an unknown or empty name is the envelope's 404. */
const referencePrefix = '/api/reference/';

const handlePlainRequest = createPlainHandler(plainRouter);

function pathnameOf(url: string): string {
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

/** Whether the web server hands this request (its `req.url`, path and query) to handleApiRequest. */
export function isApiRequest(url: string | undefined): boolean {
  if (!url) return false;
  return url.startsWith(trpcPrefix) || url.startsWith(restPrefix) || url.startsWith(hooksPrefix) || url.startsWith(referencePrefix) || plainRouter.hasPath(pathnameOf(url));
}

export async function handleApiRequest(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith(trpcPrefix)) return handleTrpcRequest(request);
  return (await handlePlainRequest(request)) ?? handleRestRequest(request);
}

/**
 * The target of a request that takes the direct path (rest-direct.ts), or null: no body, a target the fetch path
 * would accept, and exactly where handleApiRequest would reach the REST handler (not tRPC, no plain route of
 * that path).
 */
export function directRestTargetOf(req: IncomingMessage): URL | null {
  const url = directTargetOf(req);
  if (!url || url.pathname.startsWith(trpcPrefix) || plainRouter.hasPath(url.pathname)) return null;
  return url;
}

/** The API entry over node:http: a REST request without a body is served directly, the rest as a fetch Request by handleApiRequest. */
export function createNodeApiHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const viaFetch = serveWithFetchHandler(handleApiRequest);
  return (req, res) => {
    const url = directRestTargetOf(req);
    return url ? serveBodilessRest(req, res, url) : viaFetch(req, res);
  };
}
