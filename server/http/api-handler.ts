/**
 * The web server's API entry: the UI's tRPC endpoint, the plain routes and the REST procedures, in that
 * order. These requests skip the Next.js request pipeline (≈ 2 ms of CPU per request, measured by
 * `npm run bench`), and their bodies are read from the socket by our bounded reader (node-bridge.ts).
 */
import { createPlainHandler } from './plain/pipeline';
import { plainRouter } from './plain/routes';
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
