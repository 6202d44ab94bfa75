/**
 * Routes a fetch Request the way the web server does (server/http/web-server.ts) without starting
 * Next.js: every API path (REST procedures, plain routes, health, the document) goes to the one API
 * entry; anything else would be a Next.js page, which the fuzz does not target.
 */
import { handleApiRequest, isApiRequest } from '../../http/api-handler';

export type Dispatcher = (request: Request) => Promise<Response>;

export function createDispatcher(): Dispatcher {
  return async (request) => {
    const url = new URL(request.url);
    if (isApiRequest(`${url.pathname}${url.search}`)) return handleApiRequest(request);
    return new Response('not found', { status: 404, headers: { 'content-type': 'text/html' } });
  };
}
