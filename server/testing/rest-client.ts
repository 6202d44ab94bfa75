/**
 * Calls the REST surface in-process through the same handler the web server mounts, so integration
 * tests exercise the whole pipeline (body bound, authentication, rate limit, scopes, idempotency,
 * validation, envelope) without a listening socket.
 */
import { handleRestRequest } from '../http/rest-handler';
import { clientIpHeader } from '../trpc/context';

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  cookie?: string;
  key?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set('cookie', options.cookie);
  if (options.key) headers.set('authorization', `Bearer ${options.key}`);
  headers.set(clientIpHeader, options.ip ?? '127.0.0.1');
  // What a browser or an HTTP client sends: the origin it addressed (the cross-origin rule compares with it).
  if (!headers.has('host')) headers.set('host', 'localhost');
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const response = await handleRestRequest(new Request(`http://localhost${path}`, { method, headers, body }));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}
