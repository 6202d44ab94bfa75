/** Runs a fetch-style handler (Request → Response) for a node:http request. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../core/errors/app-error';
import { log } from '../core/log';
import { logIfUnexpected } from '../trpc/errors';
import { errorResponse } from './error-response';
import { bufferedTextOf } from './json-answer';
import { closeAfterAnswer, requestBodyStream } from './node-body';
import { apiSecurityHeaders } from './security-headers';

/**
 * Handlers see the request target on a fixed origin. `Host` is client text (it need not even be a
 * host name: `new URL` would throw on it); it stays a header, which the cross-origin rule compares and
 * nothing uses to build a link.
 */
const internalOrigin = 'http://localhost';

/** Thrown for a request target no URL can be made of; answered 400 in the envelope. */
class BadRequestTarget extends Error {}

/**
 * A path segment `.` or `..`, plain or percent-encoded, with `/` or `\` around it: URL parsing
 * resolves it and so moves the request onto another route (`DELETE /tables/x/rows/..` would become
 * `DELETE /tables/x/`). No route of ours has such a segment, so the request is refused instead.
 */
function hasDotSegment(target: string): boolean {
  // The target is bounded by node:http's header size limit (16 KB).
  const path = target.split(/[?#]/, 1)[0];
  return path.split(/[/\\]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

/** The request target as a URL on the fixed origin; throws BadRequestTarget for a dot segment or a target no URL can be made of. */
export function targetUrlOf(req: IncomingMessage): URL {
  if (hasDotSegment(req.url ?? '/')) throw new BadRequestTarget('dot segment in the request target');
  try {
    return new URL(req.url ?? '/', internalOrigin);
  } catch {
    throw new BadRequestTarget('request target is not a URL');
  }
}

/** A node:http request's headers as fetch Headers (a repeated header keeps every value). */
export function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

export function toFetchRequest(req: IncomingMessage): Request {
  const headers = headersOf(req);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(targetUrlOf(req), {
    method,
    headers,
    body: hasBody ? requestBodyStream(req) : undefined,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The headers an API answer is written with: `first` (the answer's own type), then the route's headers, the API
 * security headers the route did not set (security-headers.ts), and its cookies as a list (one header each).
 */
function answerHeadersOf(headers: Headers, first: Record<string, string> = {}): Record<string, string | string[]> {
  // No prototype: the names are the route's, but an object indexed by names must not reach Object.prototype.
  const answer: Record<string, string | string[]> = Object.assign(Object.create(null), first);
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') answer[name] = value;
  });
  Object.assign(answer, apiSecurityHeaders((name) => headers.has(name)));
  const cookies = headers.getSetCookie();
  if (cookies.length) answer['set-cookie'] = cookies;
  return answer;
}

/**
 * Writes the answer, streaming its body with backpressure (an export can be large), with the security
 * headers of API answers its route did not set (security-headers.ts). A client that hangs up
 * mid-answer cancels the body stream, which releases what the handler holds for it.
 */
export async function sendFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  if (!req.complete) closeAfterAnswer(req, res);
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(answerHeadersOf(response.headers))) res.setHeader(name, value);
  // A JSON answer's text written in one call, with its length, rather than streamed (json-answer.ts).
  const text = bufferedTextOf(response);
  if (text !== undefined) {
    res.end(text);
    return;
  }
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res);
  } catch (err) {
    if (!res.destroyed) log.warn({ err, url: req.url }, 'answer stream failed');
    res.destroy();
  }
}

/**
 * Writes a JSON answer without a fetch Response in between: what jsonAnswer + sendFetchResponse write for it,
 * the same headers (answerHeadersOf, with `headers` the procedure's own) and the text in one call with its length.
 * No body when `data` is undefined (a 204).
 */
export function sendJsonAnswer(req: IncomingMessage, res: ServerResponse, status: number, data: unknown, headers: Headers): void {
  if (!req.complete) closeAfterAnswer(req, res);
  const text = data === undefined ? undefined : JSON.stringify(data);
  const answerHeaders = answerHeadersOf(headers, { 'content-type': 'application/json' });
  if (text !== undefined) answerHeaders['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(status, answerHeaders);
  res.end(text);
}

/** The node answer of each request in flight through `serveWithFetchHandler`, for `departureSignalOf` (weak: a request done is forgotten). */
const answerOfRequest = new WeakMap<Request, ServerResponse>();

/** The reason of a departure signal: the client hung up before its answer was written. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection before its answer');
    this.name = 'ClientGone';
  }
}

/**
 * A signal that aborts (with ClientGone) when the client of `request` hangs up before its answer is written, for a
 * handler that waits its turn before doing work nobody would then read (the webhook intake's line). Made on demand,
 * so the other requests pay nothing for it; undefined for a request that did not come through this bridge.
 */
export function departureSignalOf(request: Request): AbortSignal | undefined {
  const res = answerOfRequest.get(request);
  if (!res) return undefined;
  const controller = new AbortController();
  const gone = () => !res.writableFinished && (res.destroyed || res.closed);
  if (gone()) controller.abort(new ClientGone());
  else res.once('close', () => gone() && controller.abort(new ClientGone()));
  return controller.signal;
}

export function serveWithFetchHandler(handler: (request: Request) => Promise<Response>) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let response: Response;
    try {
      const request = toFetchRequest(req);
      answerOfRequest.set(request, res);
      response = await handler(request);
    } catch (err) {
      const error = err instanceof BadRequestTarget ? new AppError('request.bad_request') : err;
      logIfUnexpected(error, req.url);
      response = errorResponse(error);
    }
    await sendFetchResponse(req, res, response);
  };
}
