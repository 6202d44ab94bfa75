/**
 * A connection's base URL, checked when it is saved (the provider layer checks again at every call,
 * since a name may resolve elsewhere later): an http(s) URL without credentials, query or fragment,
 * whose host passes the network guard (server/core/net/network-guard.ts) after DNS resolution.
 *
 * Private addresses (loopback, RFC 1918, CGNAT, link-local, unique-local) are refused, except for
 * `ai_local` when the instance allows it (`LLM_LOCAL_ALLOW_PRIVATE=1`: a runtime on the instance's
 * own network). Metadata, unspecified, multicast, broadcast and reserved addresses never pass.
 * The operator may open named hosts or networks to every provider (`LLM_ALLOW_HOSTS`, names or CIDRs,
 * as the HTTP node's allow-list). A member's own connection (`llm_provider`, server/domains/connections)
 * is checked here too, without the `ai_local` exception: a member never reaches the instance's network
 * unless the operator listed it.
 * Refusals are 400 `llm.invalid_base_url` with `details.reason` (`unsupported_url`,
 * `blocked_address`, `host_not_found`, `required`) and never name a resolved address.
 */
import type { LookupAddress } from 'node:dns';
import type { AiProvider } from '../../core/ai/types';
import { config } from '../../core/config';
import { appError } from '../../core/errors/app-error';
import { isNetworkGuardError, resolveAllowedAddress } from '../../core/net/network-guard';
import { allowAddressFor, parseAllowHosts } from '../../core/net/allow-list';

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

/** Whether a provider's base URL may be on the instance's own network (never for a member's own connection). */
export function allowsPrivate(provider: AiProvider, forMember = false): boolean {
  return !forMember && provider === 'ai_local' && config().LLM_LOCAL_ALLOW_PRIVATE;
}

let allowList: { text: string; allow: (host: string, address: string) => boolean } | null = null;

/** The operator's `LLM_ALLOW_HOSTS` as the guard's `allowAddress` (one function per setting: the guard caches by it). */
export function llmAllowAddress(): ((host: string, address: string) => boolean) | undefined {
  const text = config().LLM_ALLOW_HOSTS ?? '';
  if (text.trim() === '') return undefined;
  if (allowList?.text !== text) allowList = { text, allow: allowAddressFor(parseAllowHosts(text)) };
  return allowList.allow;
}

/** The network options a call on this endpoint gives the provider layer (server/core/ai/types.ts `AiNetOptions`). */
export function llmNetOptions(provider: AiProvider, options: { forMember?: boolean } = {}) {
  return { allowPrivate: allowsPrivate(provider, options.forMember), allowAddress: llmAllowAddress() };
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
  /** A member's own connection: no `ai_local` exception. */
  forMember?: boolean;
}

/** Checks a base URL for a provider and answers its stored form. */
export async function checkBaseUrl(provider: AiProvider, raw: string, options: BaseUrlCheckOptions = {}): Promise<string> {
  const { url, host } = normalizeBaseUrl(raw);
  try {
    await resolveAllowedAddress(host, { allowPrivate: allowsPrivate(provider, options.forMember), allowAddress: llmAllowAddress(), timeoutMs: 5_000, lookup: options.lookup });
  } catch (error) {
    if (isNetworkGuardError(error)) refuseBaseUrl(error.reason === 'blocked_address' ? 'blocked_address' : 'host_not_found');
    throw error;
  }
  return url;
}
