/**
 * The only way the AI layer reaches the network: a `fetch` for the AI SDK's providers (and the model
 * listings) that goes through the network guard (server/core/net/guarded-fetch.ts). Private addresses
 * are open to `ai_local` only, and only when the caller allows them; every other provider reaches
 * public addresses only. The base URL is checked before anything is sent.
 */
import { guardedFetch } from '../net/guarded-fetch';
import { AiCallError } from './errors';
import { aiProviderFacts, baseUrlOf } from './providers';
import type { AiEndpoint, AiNetOptions } from './types';

export type AiFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

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
    return response as unknown as Response;
  };
}
