/**
 * An HTTP exchange through the network guard without the fetch API: undici's `request` on the guard's agent, with
 * the same redirect loop as `guardedFetch` (followGuardedHops: every hop checked, credentials dropped off origin).
 * For a hot path that reads the answer whole (the workflow engine's HTTP node): fetch builds a WHATWG Request, a
 * Response, a Headers list and a web stream for every exchange. The node's exchange of a small JSON POST costs
 * 0.09 ms of the client's CPU this way against 0.22 ms through guardedFetch (undici's bare request: 0.04 ms;
 * `bench/http-node-client.ts`).
 *
 * What fetch did for its callers and this keeps, so a workflow sees the same exchange: the default headers fetch
 * adds when absent (`accept: *\/*`, `accept-language: *`, `accept-encoding`, `user-agent: undici`), and the body
 * decoded from its `content-encoding` (gzip, deflate, br; up to 5 codings; an unknown one leaves it as sent),
 * except for HEAD, 204 and 304 answers.
 */
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { followGuardedHops, type GuardedFetchOptions } from './guarded-fetch';

export interface GuardedAnswer {
  status: number;
  /** Lower-case names; a header sent several times is joined with ", " (as fetch's Headers does). */
  headers: Record<string, string>;
  /** Decoded from its content-encoding; read it or destroy it. */
  body: Readable;
  /** The URL of the last hop. */
  url: string;
}

/** The defaults fetch adds to a request that does not set them (undici 7's `fetch`). */
function withFetchDefaults(headers: Headers, url: URL): Headers {
  if (!headers.has('accept')) headers.set('accept', '*/*');
  if (!headers.has('accept-language')) headers.set('accept-language', '*');
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate');
  if (!headers.has('user-agent')) headers.set('user-agent', 'undici');
  return headers;
}

/**
 * Drops an answer's body unread. undici's body emits an AbortError when destroyed before its end: without a listener
 * that is an uncaught exception, which would end the process a member's workflow runs in.
 */
export function discardBody(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

/** Joined as fetch's Headers list joins them; names as undici gives them (lower case). */
function headerRecord(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(raw)) {
    const value = raw[name];
    if (value === undefined) continue;
    Object.defineProperty(out, name, { value: Array.isArray(value) ? value.join(', ') : value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const maxContentEncodings = 5;
const noBodyStatuses = new Set([101, 204, 205, 304]);
/** Lenient about a truncated end, as fetch (and curl) are: some servers send one. */
const zlibOptions = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const brotliOptions = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

type Decoder = zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress;

/**
 * The codings to undo, last applied first, as fetch decodes; null when one is unknown (the body then stays as sent).
 * `deflate` is the zlib format, but some servers send raw deflate under that name (fetch accepts both): the first
 * byte tells them apart (a zlib header's low nibble is 8, the deflate method).
 */
function codingsOf(contentEncoding: string | undefined): ('gzip' | 'deflate' | 'br')[] | null {
  if (!contentEncoding) return [];
  const named = contentEncoding.toLowerCase().split(',').map((coding) => coding.trim());
  // As fetch: more is a decompression bomb's shape, not a server's.
  if (named.length > maxContentEncodings) throw new Error(`too many content-encodings in response: ${named.length}`);
  const codings: ('gzip' | 'deflate' | 'br')[] = [];
  for (const coding of named.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') codings.push('gzip');
    else if (coding === 'deflate' || coding === 'br') codings.push(coding);
    else if (coding !== 'identity' && coding !== '') return null;
  }
  return codings;
}

/** The first chunk of a body, put back: undefined when the body is empty. */
async function peekFirstByte(body: Readable): Promise<number | undefined> {
  for await (const chunk of body.iterator({ destroyOnReturn: false })) {
    const bytes = chunk as Buffer;
    body.unshift(bytes);
    return bytes[0];
  }
  return undefined;
}

async function decoded(method: string, status: number, headers: Record<string, string>, body: Readable): Promise<Readable> {
  if (method === 'HEAD' || noBodyStatuses.has(status)) return body;
  let codings: ReturnType<typeof codingsOf>;
  try {
    codings = codingsOf(headers['content-encoding']);
  } catch (error) {
    discardBody(body);
    throw error;
  }
  if (!codings || codings.length === 0) return body;
  const decoders: Decoder[] = [];
  for (const [index, coding] of codings.entries()) {
    if (coding === 'gzip') decoders.push(zlib.createGunzip(zlibOptions));
    else if (coding === 'br') decoders.push(zlib.createBrotliDecompress(brotliOptions));
    // Only the outermost coding's first byte is on the wire; a deflate inside another coding is taken as zlib.
    else if (index === 0 && ((await peekFirstByte(body)) ?? 0x08) % 16 !== 0x08) decoders.push(zlib.createInflateRaw(zlibOptions));
    else decoders.push(zlib.createInflate(zlibOptions));
  }
  // pipeline destroys every stage when one fails or the reader destroys the last (a corrupt body, a body past its
  // bound): no decoder is left open, and each stage waits for the next to read (a bomb inflates only as it is read).
  return pipeline([body, ...decoders], () => {}) as unknown as Readable;
}

/**
 * `request` through the guard: refuses what the guard refuses (NetworkGuardError), follows redirects as
 * guardedFetch does. Other network failures are undici's own errors. `body` is text or bytes (sent again on a
 * 307/308 hop).
 */
export async function guardedRequest(
  input: string | URL,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal },
  options: GuardedFetchOptions,
): Promise<GuardedAnswer> {
  const answer = await followGuardedHops<string | Uint8Array, () => Promise<GuardedAnswer>>(
    input,
    init,
    options,
    async ({ url, method, body, headers, signal, dispatcher }) => {
      const sent = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers: Object.fromEntries(withFetchDefaults(new Headers(headers), url)),
        body: body ?? null,
        signal,
      });
      const answerHeaders = headerRecord(sent.headers);
      const location = answerHeaders.location ?? null;
      return {
        status: sent.statusCode,
        location,
        discard: async () => void (await sent.body.dump()),
        // Decoded only for the answer the caller gets: a redirect followed is dropped unread.
        answer: async () => ({ status: sent.statusCode, headers: answerHeaders, body: await decoded(method, sent.statusCode, answerHeaders, sent.body), url: url.href }),
      };
    },
    () => true,
  );
  return answer();
}
