/**
 * The one way an HTTP handler of ours answers a failure: the envelope `{"error":{"code","message",
 * "details"}}` with the catalogue status and the error's own headers (Retry-After), plus any headers
 * the request already set (Set-Cookie). Anything not an AppError is answered as an opaque 500.
 */
import { envelopeOf } from '../trpc/errors';
import { jsonAnswer } from './json-answer';

export function errorResponse(error: unknown, extraHeaders?: Headers): Response {
  const { status, body, headers } = envelopeOf(error);
  // Written to the socket in one call by the web server (a refused key's 401 or 429 is as frequent as a 200).
  const response = jsonAnswer(body, status);
  extraHeaders?.forEach((value, name) => response.headers.append(name, value));
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
