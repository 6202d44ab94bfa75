/**
 * The one way an HTTP handler of ours answers a failure: the envelope `{"error":{"code","message",
 * "details"}}` with the catalogue status and the error's own headers (Retry-After), plus any headers
 * the request already set (Set-Cookie). Anything not an AppError is answered as an opaque 500.
 */
import { envelopeOf } from '../trpc/errors';

export function errorResponse(error: unknown, extraHeaders?: Headers): Response {
  const { status, body, headers } = envelopeOf(error);
  const responseHeaders = new Headers(extraHeaders);
  for (const [name, value] of Object.entries(headers)) responseHeaders.set(name, value);
  return Response.json(body, { status, headers: responseHeaders });
}
