/**
 * A connection's base URL, checked when it is saved (the provider layer checks again at every call,
 * since a name may resolve elsewhere later): an http(s) URL without credentials, query or fragment,
 * whose host passes the network guard (server/core/net/network-guard.ts) after DNS resolution.
 *
 * Private addresses (loopback, RFC 1918, CGNAT, link-local, unique-local) are refused, except for
 * `ai_local` when the instance allows it (`LLM_LOCAL_ALLOW_PRIVATE=1`: a runtime on the instance's
 * own network). Metadata, unspecified, multicast, broadcast and reserved addresses never pass.
 * Refusals are 400 `llm.invalid_base_url` with `details.reason` (`unsupported_url`,
 * `blocked_address`, `host_not_found`, `required`) and never name a resolved address.
 */
import type { LookupAddress } from 'node:dns';
import type { AiProvider } from '../../core/ai/types';
import { config } from '../../core/config';
import { appError } from '../../core/errors/app-error';
import { isNetworkGuardError, resolveAllowedAddress } from '../../core/net/network-guard';

export type BaseUrlRefusal = 'unsupported_url' | 'blocked_address' | 'host_not_found' | 'required';

const messages: Record<BaseUrlRefusal, string> = {
  unsupported_url: 'The base URL must be an http or https URL without credentials, query or fragment.',
  blocked_address: 'The base URL’s host resolves to an address this instance does not connect to.',
  host_not_found: 'The base URL’s host name could not be resolved.',
  required: 'This provider needs a base URL.',
};

export function refuseBaseUrl(reason: BaseUrlRefusal): never {
  throw appError('llm.invalid_base_url', { message: messages[reason], details: { reason } });
}

/** Whether a provider's base URL may be on the instance's own network. */
export function allowsPrivate(provider: AiProvider): boolean {
  return provider === 'ai_local' && config().LLM_LOCAL_ALLOW_PRIVATE;
}

/** The URL in its stored form (no trailing slash), or a refusal; no network access. */
export function normalizeBaseUrl(raw: string): { url: string; host: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refuseBaseUrl('unsupported_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuseBaseUrl('unsupported_url');
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || raw.includes('#') || raw.includes('?')) refuseBaseUrl('unsupported_url');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') refuseBaseUrl('unsupported_url');
  const path = url.pathname.replace(/\/+$/, '');
  return { url: `${url.protocol}//${url.host}${path}`, host };
}

export interface BaseUrlCheckOptions {
  /** DNS resolution (unit tests substitute their own). */
  lookup?: (host: string) => Promise<LookupAddress[]>;
}

/** Checks a base URL for a provider and answers its stored form. */
export async function checkBaseUrl(provider: AiProvider, raw: string, options: BaseUrlCheckOptions = {}): Promise<string> {
  const { url, host } = normalizeBaseUrl(raw);
  try {
    await resolveAllowedAddress(host, { allowPrivate: allowsPrivate(provider), timeoutMs: 5_000, lookup: options.lookup });
  } catch (error) {
    if (isNetworkGuardError(error)) refuseBaseUrl(error.reason === 'blocked_address' ? 'blocked_address' : 'host_not_found');
    throw error;
  }
  return url;
}
