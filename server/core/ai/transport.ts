/**
 * The only way the AI layer reaches the network: a `fetch` for the AI SDK's providers (and the model
 * listings) that goes through the network guard (server/core/net/guarded-fetch.ts). Private addresses
 * are open to `ai_local` only, and only when the caller allows them; every other provider reaches
 * public addresses only. The base URL is checked before anything is sent.
 *
 * Every answer is read bounded, on the bytes read (issue 18, item 6), in whatever process calls: a
 * successful one (a completion, a stream, a listing) fails `response_too_large` beyond
 * `aiResponseBounds.maxBodyBytes`; an error answer's body is cut at `maxErrorBodyBytes` (what is kept
 * is enough to read the vendor's error type; the failure is then classified by its status).
 */
import { guardedFetch } from '../net/guarded-fetch';
import { AiCallError } from './errors';
import { aiProviderFacts, baseUrlOf } from './providers';
import type { AiEndpoint, AiNetOptions } from './types';

export type AiFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * 16 MiB: a streamed answer costs about 200 bytes of SSE per token, so this passes some 80,000
 * streamed tokens (more than the vendors' usual output ceilings) and stops a server that never ends.
 * 64 KiB of an error body holds any vendor's error object.
 */
export const aiResponseBounds = { maxBodyBytes: 16 * 1024 * 1024, maxErrorBodyBytes: 64 * 1024 } as const;

const nullBodyStatuses = new Set([101, 204, 205, 304]);

/**
 * The response with its body read through a counter: beyond `maxBytes` a success body errors with
 * `response_too_large` and an error body simply ends there. The rest is never read (the connection is
 * cancelled).
 */
export function boundedResponse(response: Response, maxBytes: { body: number; errorBody: number }, provider: AiEndpoint['provider']): Response {
  if (!response.body || nullBodyStatuses.has(response.status)) return response;
  const failure = response.status >= 400;
  const limit = failure ? maxBytes.errorBody : maxBytes.body;
  const reader = response.body.getReader();
  let total = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        controller.error(error);
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      const room = limit - total;
      total += chunk.value.byteLength;
      if (total <= limit) {
        controller.enqueue(chunk.value);
        return;
      }
      await reader.cancel().catch(() => {});
      if (failure) {
        if (room > 0) controller.enqueue(chunk.value.subarray(0, room));
        controller.close();
      } else {
        controller.error(new AiCallError('response_too_large', { provider, status: response.status }));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  Object.defineProperty(bounded, 'url', { value: response.url });
  return bounded;
}

/** A whole exchange's ceiling at the transport (the caller's signal is usually shorter): 30 minutes, the spec's longest attempt. */
const transportTimeoutMs = 30 * 60 * 1000;

/** The endpoint's base URL, checked: http(s), no credentials or fragment, required for the generic provider. */
export function checkedBaseUrl(endpoint: AiEndpoint): URL {
  const text = baseUrlOf(endpoint);
  if (!text) throw new AiCallError('invalid_base_url', { provider: endpoint.provider });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AiCallError('invalid_base_url', { provider: endpoint.provider });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.hash) {
    throw new AiCallError('invalid_base_url', { provider: endpoint.provider });
  }
  return url;
}

/** Whether private addresses are open for this endpoint. */
export function privateAllowed(endpoint: AiEndpoint, net: AiNetOptions | undefined): boolean {
  return aiProviderFacts[endpoint.provider].mayUsePrivateNetwork && net?.allowPrivate === true;
}

/** A fetch function (the global signature the SDK expects) whose every request passes the guard. */
export function aiFetch(endpoint: AiEndpoint, net: AiNetOptions | undefined): AiFetch {
  const allowPrivate = privateAllowed(endpoint, net);
  const allowAddress = net?.allowAddress;
  return async (input, init) => {
    const url = typeof input === 'string' || input instanceof URL ? input : input.url;
    const response = await guardedFetch(
      url,
      {
        method: init?.method,
        headers: init?.headers as Record<string, string> | undefined,
        body: init?.body as string | undefined,
        signal: init?.signal ?? undefined,
      },
      // No redirects: vendors' APIs do not redirect, and the guard strips only `Authorization` on a
      // cross-origin hop, not `x-api-key` / `x-goog-api-key`.
      { allowPrivate, allowAddress, timeoutMs: transportTimeoutMs, followRedirects: false },
    );
    return boundedResponse(response as unknown as Response, { body: aiResponseBounds.maxBodyBytes, errorBody: aiResponseBounds.maxErrorBodyBytes }, endpoint.provider);
  };
}
