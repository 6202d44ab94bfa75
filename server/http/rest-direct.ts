/**
 * The web server's direct path for REST requests without a body (every program's `GET`, most `DELETE`s): the
 * request is read from node:http as it is and the JSON answer written to it, with no fetch `Request`, `Headers`
 * or `Response` built around it (issue 25 §2: they cost the API entry more CPU than the rest of a small answer).
 * Everything else (a body, tRPC, the plain routes, a target the fetch path refuses) goes through the fetch
 * handler, and both paths answer a request alike: the same REST handler (rest-handler.ts) decides.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logIfUnexpected } from '../trpc/errors';
import { errorResponse } from './error-response';
import { sendFetchResponse, sendJsonAnswer, targetUrlOf } from './node-bridge';
import { nodeRequestHeaders } from './node-headers';
import { answerRestRequest } from './rest-handler';

/**
 * Whether the request carries no body: HTTP/1.1 frames a request body only by `Content-Length` or
 * `Transfer-Encoding` (node:http refuses a request with both, and reads nothing without either).
 */
export function hasNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/** The request's target when it may take the direct path: a URL the fetch path would make of it too; null otherwise. */
export function directTargetOf(req: IncomingMessage): URL | null {
  if (!hasNoBody(req)) return null;
  try {
    return targetUrlOf(req);
  } catch {
    // The fetch path answers it (400 in the envelope).
    return null;
  }
}

async function noBodyText(): Promise<string> {
  return '';
}

export async function serveBodilessRest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    const outcome = await answerRestRequest({ method: req.method ?? 'GET', url, headers: nodeRequestHeaders(req.headers), bodyText: noBodyText });
    if (outcome.kind === 'data') sendJsonAnswer(req, res, outcome.status, outcome.data, outcome.headers);
    else await sendFetchResponse(req, res, outcome.response);
  } catch (error) {
    // The handler answers its own failures; this is a fault of the writing itself (the answer's JSON).
    logIfUnexpected(error, req.url);
    if (!res.headersSent) await sendFetchResponse(req, res, errorResponse(error));
    else res.destroy();
  }
}
