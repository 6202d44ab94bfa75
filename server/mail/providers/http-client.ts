/**
 * The HTTP exchange both OAuth provider adapters share: every request goes through the network guard
 * (`guardedFetch`, private hosts only when the instance allows them), carries the injected access
 * token (refreshed once on a 401, then `auth`), stays under the configured API root (links the
 * provider hands back, `@odata.nextLink` and the like, are followed only there), has a deadline, reads
 * at most a bounded number of bytes, and turns every failure into a typed ProviderError.
 */
import { guardedFetch } from '../../core/net/guarded-fetch';
import { allowPrivateHosts } from '../../core/net/network-guard';
import { httpFailureError, networkFailureError, ProviderError } from './provider-errors';
import type { CallBudget } from './call-budget';
import type { CallSlots } from './call-slots';
import { abortReason } from './shared';

/** The part of a web ReadableStream of bytes the client reads. */
export interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(reason?: unknown): Promise<void>; releaseLock(): void };
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a fetch Response the client reads (undici's and the global one both fit). */
export interface ProviderResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: ByteStream | null;
}

export interface ProviderRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export type ProviderFetch = (url: string, init: ProviderRequestInit) => Promise<ProviderResponse>;

export type AccessTokenSource = (options?: { forceRefresh?: boolean }) => Promise<string>;

export interface ProviderHttpOptions {
  /** API root, e.g. `https://gmail.googleapis.com/gmail/v1`; paths are appended to it. */
  baseUrl: string;
  accessToken: AccessTokenSource;
  /** Substitute transport (tests); default `guardedFetch` with the instance's private-host rule. */
  fetch?: ProviderFetch;
  /** Private hosts allowed (default: `MAIL_ALLOW_PRIVATE_HOSTS`); ignored when `fetch` is given. */
  allowPrivate?: boolean;
  /** Whole exchange, body included. Default 60 s, bounds 1 s - 10 min. */
  timeoutMs?: number;
  /** Headers sent with every request (Graph's `Prefer: IdType="ImmutableId"`). */
  headers?: Record<string, string>;
  /** Provider codes/reasons of an error body (Gmail and Graph shape them differently). */
  errorReasons: (body: unknown) => string[];
  /** The account's share of the provider's quota, taken before every exchange (call-budget.ts). */
  budget?: CallBudget;
  /** The account's concurrent requests (Graph's 4), one held for each exchange until its answer is read (call-slots.ts). */
  slots?: CallSlots;
  /** What one exchange costs of that quota (Gmail's units per method); default 1. */
  costOf?: (method: string, url: URL) => number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Query parameters; arrays repeat the name. */
  query?: Record<string, string | number | boolean | string[] | undefined>;
  json?: unknown;
  /** A body that is not JSON (Graph's sendMail takes the MIME as base64 text). */
  text?: { body: string; contentType: string };
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Bytes of the answer read at most (default 8 MiB). Past it: `throw` (default) a `provider.too_large`
   * error, answer `null`, or `cut`: the first `maxBytes` bytes with `cut: true`.
   */
  maxBytes?: number;
  tooLarge?: 'null' | 'throw' | 'cut';
  timeoutMs?: number;
}

export interface ProviderAnswer {
  status: number;
  headers: { get(name: string): string | null };
  bytes: Buffer;
  /** The answer was longer than `maxBytes` and `bytes` is its beginning (`tooLarge: 'cut'`). */
  cut: boolean;
}

/** Bytes of an error body read for its codes. */
const errorBodyBytes = 64 * 1024;
/** What an exchange answers when a 401 may be retried with a fresh token. */
const unauthorised = Symbol('unauthorised');
const defaultMaxBytes = 8 * 1024 * 1024;

export class ProviderHttp {
  readonly base: URL;
  private readonly options: ProviderHttpOptions;
  private readonly transport: ProviderFetch;

  constructor(options: ProviderHttpOptions) {
    this.options = options;
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error('The provider API URL must be http(s).');
    base.pathname = base.pathname.replace(/\/+$/, '');
    base.search = '';
    base.hash = '';
    this.base = base;
    const timeoutMs = clampTimeout(options.timeoutMs ?? 60_000);
    const allowPrivate = options.allowPrivate ?? allowPrivateHosts();
    this.transport =
      options.fetch ??
      ((url, init) => guardedFetch(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal }, { allowPrivate, timeoutMs }));
  }

  /** An absolute URL under the API root, from a path (`/users/me/labels`) or a link the provider gave. */
  url(pathOrLink: string, query?: RequestOptions['query']): URL {
    let url: URL;
    if (/^https?:\/\//i.test(pathOrLink)) {
      url = new URL(pathOrLink);
      // Links come from the provider's answers: follow them only under the configured API root.
      const root = `${this.base.pathname}/`;
      if (url.origin !== this.base.origin || !(url.pathname === this.base.pathname || url.pathname.startsWith(root))) {
        throw new ProviderError({ kind: 'permanent', code: 'provider.bad_response', providerCode: 'foreign_link' });
      }
    } else {
      url = new URL(this.base.href);
      url.pathname = `${this.base.pathname}${pathOrLink.startsWith('/') ? '' : '/'}${pathOrLink}`;
    }
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, item);
      else url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** One exchange; a non-2xx answer throws a ProviderError (a 401 after one forced token refresh). */
  async request(pathOrLink: string, options: RequestOptions = {}): Promise<ProviderAnswer | null> {
    const target = this.url(pathOrLink, options.query);
    const url = target.href;
    const cost = this.options.costOf?.(options.method ?? 'GET', target) ?? 1;
    let refreshed = false;
    let token = await this.options.accessToken();
    for (;;) {
      await this.options.budget?.take(cost, options.signal);
      // Taken after the budget: a caller waiting for quota holds no slot another caller could use.
      const release = await this.options.slots?.take(this.timeoutOf(options), options.signal);
      let answer: ProviderAnswer | null | typeof unauthorised;
      try {
        answer = await this.exchange(url, token, options, !refreshed);
      } finally {
        await release?.();
      }
      if (answer !== unauthorised) return answer;
      refreshed = true;
      token = await this.options.accessToken({ forceRefresh: true });
    }
  }

  /** The exchange and its answer read; `unauthorised` for a 401 when a fresh token may still be tried. */
  private async exchange(url: string, token: string, options: RequestOptions, mayRefresh: boolean): Promise<ProviderAnswer | null | typeof unauthorised> {
    const response = await this.send(url, token, options);
    if (response.status === 401 && mayRefresh) {
      await discard(response);
      return unauthorised;
    }
    if (response.status < 200 || response.status >= 300) throw await this.failure(response);
    const read = await readPrefix(response, options.maxBytes ?? defaultMaxBytes, options.signal, options.tooLarge === 'cut');
    if (read.overflow) {
      if (options.tooLarge === 'cut') return { status: response.status, headers: response.headers, bytes: read.bytes, cut: true };
      if (options.tooLarge === 'null') return null;
      throw new ProviderError({ kind: 'permanent', code: 'provider.too_large', httpStatus: response.status });
    }
    return { status: response.status, headers: response.headers, bytes: read.bytes, cut: false };
  }

  private timeoutOf(options: RequestOptions): number {
    return clampTimeout(options.timeoutMs ?? this.options.timeoutMs ?? 60_000);
  }

  /** A JSON answer (an empty body is `{}`). */
  async json<T>(pathOrLink: string, options: RequestOptions = {}): Promise<T> {
    const answer = await this.request(pathOrLink, { ...options, tooLarge: 'throw' });
    const text = answer!.bytes.toString('utf8');
    if (text.trim() === '') return {} as T;
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new ProviderError({ kind: 'permanent', code: 'provider.bad_response', providerCode: 'invalid_json', cause: error });
    }
  }

  private async send(url: string, token: string, options: RequestOptions): Promise<ProviderResponse> {
    options.signal?.throwIfAborted();
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...options.headers, authorization: `Bearer ${token}` };
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.text !== undefined) {
      body = options.text.body;
      headers['content-type'] = options.text.contentType;
    }
    const signals = [AbortSignal.timeout(this.timeoutOf(options))];
    if (options.signal) signals.push(options.signal);
    try {
      return await this.transport(url, { method: options.method ?? 'GET', headers, body, signal: AbortSignal.any(signals) });
    } catch (error) {
      // Shutdown or lease loss: not the provider's failure; the orchestrator sees the abort itself.
      if (options.signal?.aborted) throw abortReason(options.signal);
      throw networkFailureError(error);
    }
  }

  private async failure(response: ProviderResponse): Promise<ProviderError> {
    let reasons: string[] = [];
    const bytes = await readBounded(response, errorBodyBytes).catch(() => null);
    if (bytes) {
      try {
        reasons = this.options.errorReasons(JSON.parse(bytes.toString('utf8')));
      } catch {
        reasons = [];
      }
    }
    return httpFailureError({ status: response.status, retryAfter: response.headers.get('retry-after'), reasons });
  }
}

function clampTimeout(ms: number): number {
  return Math.min(600_000, Math.max(1_000, ms));
}

async function discard(response: ProviderResponse): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** The body, or null once it passes `maxBytes` (counted on the bytes read, never on a declared length). */
export async function readBounded(response: ProviderResponse, maxBytes: number, signal?: AbortSignal): Promise<Buffer | null> {
  const read = await readPrefix(response, maxBytes, signal, false);
  return read.overflow ? null : read.bytes;
}

/**
 * The body up to `maxBytes`; `overflow` when there was more. With `keepPrefix` the first `maxBytes`
 * bytes are answered then, otherwise nothing (and a declared length past the bound is not read at all).
 */
async function readPrefix(response: ProviderResponse, maxBytes: number, signal: AbortSignal | undefined, keepPrefix: boolean): Promise<{ bytes: Buffer; overflow: boolean }> {
  const declared = Number(response.headers.get('content-length'));
  if (!keepPrefix && Number.isFinite(declared) && declared > maxBytes) {
    await discard(response);
    return { bytes: Buffer.alloc(0), overflow: true };
  }
  if (!response.body) return { bytes: Buffer.alloc(0), overflow: false };
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done || !value) break;
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      if (total + chunk.length > maxBytes) {
        if (keepPrefix) chunks.push(chunk.subarray(0, maxBytes - total));
        await reader.cancel().catch(() => {});
        return { bytes: keepPrefix ? Buffer.concat(chunks, maxBytes) : Buffer.alloc(0), overflow: true };
      }
      total += chunk.length;
      chunks.push(chunk);
    }
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw networkFailureError(error);
  } finally {
    reader.releaseLock();
  }
  return { bytes: Buffer.concat(chunks, total), overflow: false };
}
