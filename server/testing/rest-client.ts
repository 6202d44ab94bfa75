/**
 * Calls the API in-process through the same handler the web server mounts (REST procedures, plain
 * routes, tRPC), so integration tests exercise the whole pipeline (body bound, cross-origin rule,
 * authentication, rate limit, scopes, idempotency, validation, envelope) without a listening socket.
 */
import { handleApiRequest } from '../http/api-handler';
import { clientIpHeader } from '../trpc/context';

export interface CallOptions {
  body?: unknown;
  /** A body sent as it is (a multipart upload: bytes). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  cookie?: string;
  key?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface CallResult<T = any> {
  status: number;
  /** The parsed JSON answer, or its text when the answer is not JSON (a CSV download). */
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
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const response = await handleApiRequest(new Request(`http://localhost${path}`, { method, headers, body }));
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json');
  return { status: response.status, body: json ? (text ? JSON.parse(text) : null) : text, headers: response.headers };
}
